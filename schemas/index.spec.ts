// The declarations agree with one another (declarationProblems), and the check finds the mistakes
// a new entity file could make.
import { describe, expect, it } from 'vitest';
import type { ResourceDescriptor } from './descriptor';
import { declarationProblems, referencesTo, RESOURCES, richTextFields, uploadModules, writeModuleOf } from './index';

/** A copy of the first descriptor that declares screens, changed by `change`. */
function broken(change: (d: ResourceDescriptor) => Partial<ResourceDescriptor>): ResourceDescriptor[] {
  const d = RESOURCES.find((r) => (r.screens ?? []).some((s) => s.menu?.length))!;
  return RESOURCES.map((r) => (r === d ? { ...r, ...change(r) } : r));
}

describe('declarationProblems', () => {
  it('finds none in the real descriptors', () => {
    expect(declarationProblems()).toEqual([]);
  });

  it('reports a module no entity declares', () => {
    const problems = declarationProblems(broken(() => ({ module: 'noSuchModule' })));
    expect(problems.some((p) => p.includes('noSuchModule'))).toBe(true);
  });

  it('reports a reference to an unknown resource, or to a field the target lacks', () => {
    const reference = { field: 'Id', to: 'noSuchResource', toField: 'Id', missing: '不存在', onDelete: 'cascade' } as const;
    const unknown = declarationProblems(broken((d) => ({ references: [...(d.references ?? []), reference] })));
    expect(unknown.some((p) => p.includes('unknown resource noSuchResource'))).toBe(true);
    const target = RESOURCES[0]!.resource;
    const noField = declarationProblems(broken((d) => ({ references: [...(d.references ?? []), { ...reference, to: target, toField: 'NoSuchField' }] })));
    expect(noField.some((p) => p.includes('NoSuchField'))).toBe(true);
  });

  it('reports a refused delete without its message', () => {
    const target = RESOURCES[0]!.resource;
    const reference = { field: 'Id', to: target, toField: 'Id', missing: '不存在', onDelete: 'refuse' } as const;
    const problems = declarationProblems(broken(() => ({ references: [reference] })));
    expect(problems.some((p) => p.includes('refuses deletes without a message'))).toBe(true);
  });

  it('reports a menu position used twice', () => {
    const problems = declarationProblems(
      broken((d) => {
        const taken = RESOURCES.flatMap((r) => (r.screens ?? []).flatMap((s) => s.menu ?? [])).find((m) => !d.screens!.some((s) => s.menu?.includes(m)))!;
        return { screens: d.screens!.map((s) => ({ ...s, menu: s.menu?.map((m) => ({ ...m, order: taken.order })) })) };
      }),
    );
    expect(problems.some((p) => /menu order \d+ is used twice/.test(p))).toBe(true);
  });

  it('reports a hidden field, or a name field, the schema lacks', () => {
    const problems = declarationProblems(broken(() => ({ hidden: { list: ['NoSuchColumn'] }, nameField: 'NoSuchName' })));
    expect(problems.some((p) => p.includes('NoSuchColumn'))).toBe(true);
    expect(problems.some((p) => p.includes('NoSuchName'))).toBe(true);
  });

  it('reports fields declared unique together that the schema lacks, or an empty set', () => {
    const problems = declarationProblems(broken(() => ({ unique: [['Id', 'NoSuchPart'], []] })));
    expect(problems.some((p) => p.includes('unique field NoSuchPart is not a field'))).toBe(true);
    expect(problems.some((p) => p.includes('a unique set names no field'))).toBe(true);
  });

  it('reports a resource declared twice', () => {
    expect(declarationProblems([...RESOURCES, RESOURCES[0]!])).toContain(`resource ${RESOURCES[0]!.resource} is declared twice`);
  });
});

describe('what follows from the declarations', () => {
  it('lets whoever writes records holding a kind of file upload it', () => {
    for (const d of RESOURCES) {
      for (const kind of Object.values(d.files ?? {})) {
        if (writeModuleOf(d)) expect(uploadModules(kind), `${d.resource} ${kind}`).toContain(writeModuleOf(d));
      }
    }
    // A new entity with a file list adds its module to the uploaders of that kind, and only there.
    const base = RESOURCES.find((d) => d.files && Object.keys(d.files).length > 0)!;
    const extra = { ...base, resource: 'extra', module: 'extraModule', writeModule: undefined, files: { VdEnclosure: 'handout' } } as ResourceDescriptor;
    expect(uploadModules('handout', [...RESOURCES, extra])).toContain('extraModule');
    expect(uploadModules('handout')).not.toContain('extraModule');
    expect(uploadModules('video', [...RESOURCES, extra])).toEqual(uploadModules('video'));
  });

  it('lets the editors of rich text upload images, unless a call of their own writes it', () => {
    for (const d of RESOURCES.filter((r) => richTextFields(r).length > 0 && writeModuleOf(r))) {
      const ownCalls = (['create', 'update'] as const).every((k) => !d.calls[k] || d.handWritten?.includes(k));
      const uploaders = uploadModules('image', [d]);
      if (ownCalls) expect(uploaders, d.resource).toEqual([]);
      else expect(uploaders, d.resource).toEqual([writeModuleOf(d)]);
    }
  });

  it('finds the references pointing at a resource', () => {
    for (const d of RESOURCES) {
      for (const r of d.references ?? []) expect(referencesTo(r.to).some((x) => x.from === d && x.reference === r), `${d.resource}.${r.field}`).toBe(true);
    }
  });
});
