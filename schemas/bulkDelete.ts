// 批量删除 (docs/api.md, Bulk delete): which resources have the call, its name, its bounds and its
// answer, shared by the server (server/src/routes/bulkDelete.ts) and the admin app (the dataProvider
// and src/components/BulkDelete.tsx), so that a screen offers it exactly where the server has it.
import type { ResourceDescriptor } from './descriptor';

/** Rows one call deletes at most: a selection, or every row matching a filter (refused past it). */
export const MAX_BULK_DELETE = 10000;

/**
 * Rows deleted per transaction: other requests get the database between two batches. On SQLite a
 * batch holds the one connection, and the event loop, while it runs (some 2 ms a video with its
 * daily figures and audit entry): 100 made /health wait up to 380 ms, 25 keeps it near 50.
 */
export const BULK_DELETE_BATCH = 25;

/** A row the call did not delete, and why (Chinese, as a single delete would have answered). */
export interface BulkDeleteFailure {
  Id: number;
  /** The row's name (the descriptor's nameField); null when the row was already gone. */
  Name: string | null;
  Reason: string;
}

/** The call's `data`. */
export interface BulkDeleteResult {
  Deleted: number;
  Failed: BulkDeleteFailure[];
}

/**
 * The bulk delete call of a resource: its generic delete call's name + `Batch`, for every
 * descriptor whose delete is generated. A hand-written delete (a member, a comment) has its own
 * rules in its own module and no bulk call.
 */
export function bulkDeleteCall(descriptor: ResourceDescriptor): string | undefined {
  const name = descriptor.calls.delete;
  return name && !descriptor.handWritten?.includes('delete') ? `${name}Batch` : undefined;
}
