import { memberResource } from '../../../schemas/member';
import { lazyPart, usePreloadWhenIdle } from '../../components/lazyPart';
import { SchemaList } from '../../components/SchemaList';

/** The dialog's inputs: fetched with the dialog, not with the list. */
const MemberInputs = lazyPart('MemberInputs', () => import('./MemberInputs').then((m) => m.MemberInputs));

/** An empty password on edit means "keep it": it is not sent. */
function dropEmptyPassword(data: Record<string, unknown>): Record<string, unknown> {
  if (data.Password === '' || data.Password === null || data.Password === undefined) {
    const rest = { ...data };
    delete rest.Password;
    return rest;
  }
  return data;
}

/** 成员管理 (administrators only): logins, names, the admin and 停用 flags and per-module permissions. */
export default function MemberList() {
  usePreloadWhenIdle(MemberInputs);
  return (
    <SchemaList
      descriptor={memberResource}
      form={{ inputs: <MemberInputs />, transform: dropEmptyPassword, createDefaults: { Modules: {} } }}
    />
  );
}
