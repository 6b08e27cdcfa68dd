// Pausing the removal of stored files while a backup is taken (docs/backup.md): `npm run backup`
// writes this SETTING row (an ISO time, renewed while it runs) before its database snapshot and
// deletes it once the files are copied; the sweeper (lifecycle.ts) makes no new removal decision
// before that time. A backup that dies leaves a lease that simply runs out.
export const PAUSE_SETTING = 'file_removal_paused_until';

/** How long one renewal of the pause lasts; `npm run backup` renews it every minute. */
export const PAUSE_LEASE_MS = 15 * 60_000;
