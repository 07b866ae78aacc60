/**
 * Jobs that keep themselves current (docs/product.md, "Keeping jobs current by themselves").
 * - jobs get their Keep current mark, and the file their corpus is written to after each automatic
 *   sync (chosen in the desktop app's save dialog);
 * - syncs say whether they were automatic (the desktop app's schedule, `sync --all`) or the user's;
 * - the ledger marks the credits automatic syncs spent, so that the daily credit limit counts them
 *   from the ledger itself, deleted jobs included (their rows outlive them).
 */
export const keepCurrentSchema = `
ALTER TABLE jobs ADD COLUMN keep_current INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN auto_export_path TEXT;
ALTER TABLE syncs ADD COLUMN automatic INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ledger ADD COLUMN automatic INTEGER NOT NULL DEFAULT 0;
-- The daily credit limit counts today's automatic credits.
CREATE INDEX ledger_automatic_by_time ON ledger (at) WHERE automatic = 1;
`;
