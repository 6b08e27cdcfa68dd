// Registry of every resource descriptor, in menu order.
import { auditLogResource } from './auditLog';
import type { ResourceDescriptor } from './descriptor';
import { memberResource } from './member';
import { articleResource, tykjArticleResource } from './standardArticle';
import { classifyResource, tykjClassifyResource } from './standardClassify';
import { usewebResource } from './useweb';
import { videoResource } from './video';
import { videoCommentResource } from './videoComment';
import { videoTypeResource } from './videoType';

export * from './descriptor';
export * from './fields';
export { videoResource, videoSchema } from './video';
export { videoTypeResource, videoTypeSchema } from './videoType';
export { videoCommentResource, videoCommentSchema } from './videoComment';
export { usewebResource, usewebSchema } from './useweb';
export { articleResource, tykjArticleResource, standardArticleSchema } from './standardArticle';
export { classifyResource, tykjClassifyResource, standardClassifySchema, ROOT_CODE } from './standardClassify';
export { memberResource, memberSchema, PERMISSION_STRING_PATTERN } from './member';
export { auditLogResource, auditLogSchema } from './auditLog';

export const RESOURCES = [
  videoResource,
  videoTypeResource,
  videoCommentResource,
  usewebResource,
  articleResource,
  tykjArticleResource,
  classifyResource,
  tykjClassifyResource,
  memberResource,
  auditLogResource,
] as const satisfies readonly ResourceDescriptor[];

export type ResourceName = (typeof RESOURCES)[number]['resource'];

export function resourceByName(name: string): ResourceDescriptor | undefined {
  return (RESOURCES as readonly ResourceDescriptor[]).find((r) => r.resource === name);
}
