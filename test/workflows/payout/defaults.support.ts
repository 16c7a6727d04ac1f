// What the tests of Bulk Create at its default settings share: Bulk Create with only what the
// editor asks for, the uploads sent, and n8n's data table module turned off for a test.
import type { IDataObject } from 'n8n-workflow';

import { dataTables } from '../../harness';
import { requestsTo } from '../support';
import { bulkCreate, UPLOAD, usePayoutFile } from './support';

/** n8n's data table module off (N8N_DISABLED_MODULES=data-table): the node's own memory. */
export async function withoutDataTables(run: () => Promise<void>): Promise<void> {
	dataTables.enabled = false;
	try {
		await run();
	} finally {
		dataTables.enabled = true;
	}
}

/** usePayoutFile, and Bulk Create with only what the editor asks for; the uploads sent so far. */
export function useDefaultsTests(prefix: string) {
	const { sandbox, tagOf, queued } = usePayoutFile(prefix);
	/** Only what the editor asks for: resource, operation, currency (required). */
	const payout = (
		items: IDataObject[],
		more: {
			parameters?: IDataObject;
			typeVersion?: number;
			continueOnFail?: boolean;
			/** The same ID is the same workflow run again (the node's memory is kept per workflow). */
			workflow?: string;
		} = {},
	) =>
		bulkCreate(sandbox(), items, more.parameters, {
			workflowId: more.workflow,
			typeVersion: more.typeVersion,
			continueOnFail: more.continueOnFail,
		});
	const uploads = () => requestsTo(sandbox(), UPLOAD).length;
	return { sandbox, tagOf, queued, payout, uploads };
}
