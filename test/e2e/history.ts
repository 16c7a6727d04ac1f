// n8n 2.0 publishes a workflow's version from its history (publish:workflow), but its import:workflow
// writes no history (n8n 2.20 and later do): the harness writes the row n8n's later import writes.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { N8N_DIR, n8nAtLeast, n8nFileIncludes } from './version';

/** This release publishes from the history and its import does not write one. */
export const IMPORT_WITHOUT_HISTORY =
	n8nAtLeast('2.0.0') &&
	!n8nFileIncludes('n8n/dist/services/import.service.js', 'insert(db_1.WorkflowHistory');

// The imported workflow's own version, as n8n 2.20's import inserts it (authors: 'import').
const INSERT = `INSERT INTO workflow_history
	("versionId", "workflowId", "authors", "nodes", "connections", "createdAt", "updatedAt")
	SELECT "versionId", "id", 'import', "nodes", "connections", "createdAt", "updatedAt"
	FROM workflow_entity WHERE "id" = ?
	AND "versionId" NOT IN (SELECT "versionId" FROM workflow_history)`;

const SCRIPT = `
const [sqlite3, file, sql, id] = process.argv.slice(1);
const db = new (require(sqlite3).Database)(file);
db.run(sql, [id], (error) => { if (error) { console.error(error.message); process.exitCode = 1; } db.close(); });
`;

/** Writes the imported version of workflow `id` into the history of the SQLite database. */
export function recordImportedVersion(userFolder: string, id: string): void {
	if (!IMPORT_WITHOUT_HISTORY) return;
	if ((process.env.DB_TYPE ?? 'sqlite') !== 'sqlite')
		throw new Error('n8n 2.0 imports without history: only its SQLite database is handled here');
	const result = spawnSync(
		'node',
		[
			'-e',
			SCRIPT,
			join(N8N_DIR, 'node_modules/sqlite3'),
			join(userFolder, '.n8n/database.sqlite'),
			INSERT,
			id,
		],
		{ encoding: 'utf8' },
	);
	if (result.status !== 0) throw new Error(`workflow history for ${id}: ${result.stderr}`);
}
