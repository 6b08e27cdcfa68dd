// Turns Ajv's validation errors into the field errors of docs/api.md, in Chinese.
import type { FieldError } from '../errors';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  parentSchema?: { title?: string };
}

function fieldOf(error: AjvError): string {
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    return error.params.missingProperty;
  }
  const path = error.instancePath.replace(/^\//, '');
  return path.split('/')[0] || 'body';
}

/** Messages for a missing required field that has a wording of its own. */
const REQUIRED_MESSAGES: Record<string, string> = { VdUrl: '请上传视频!' };

function messageOf(error: AjvError, field: string): string {
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      return REQUIRED_MESSAGES[field] ?? '必填';
    case 'minLength':
      return p.limit === 1 ? (REQUIRED_MESSAGES[field] ?? '必填') : `至少${String(p.limit)}个字符`;
    case 'maxLength':
      return `不能超过${String(p.limit)}个字符`;
    case 'minimum':
      return `不能小于${String(p.limit)}`;
    case 'maximum':
      return `不能大于${String(p.limit)}`;
    case 'type':
      return p.type === 'integer' || p.type === 'number' ? '须为数字' : '类型不正确';
    case 'enum':
      return '取值无效';
    case 'format':
      return p.format === 'date' ? '日期格式应为YYYY-MM-DD' : '格式不正确';
    case 'pattern':
      return '格式不正确';
    case 'additionalProperties':
      return '不支持的字段';
    default:
      return '格式不正确';
  }
}

export function fieldErrors(validation: readonly AjvError[]): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const error of validation) {
    const field = fieldOf(error);
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, msg: messageOf(error, field) });
  }
  return out;
}
