// 10,000 payout rows from items in a new node (version 3: batches of 500, every Reference No kept in
// n8n's processed-data store and looked up before sending): 20 batches, each built, sent to the
// sandbox and answered, against exceljs alone writing the same rows as one file; and the n8n
// process's RSS growth while the node ran against exceljs's growth writing them.
import type { BenchN8n } from './n8n';
import { anchor, type Figure } from './figure';
import { PAYOUT_ITEM } from './sheets';
import { atMost } from './stats';
import { benchWorkflow, gateway, itemsCode } from './workflows';

const ROWS = 10_000;
const BATCHES = ROWS / 500;

export function payoutBatchesFigure(): Figure {
	const node: number[] = [];
	const checked: number[] = [];
	const alone: number[] = [];
	const nodeMb: number[] = [];
	const aloneMb: number[] = [];
	const v2ms: number[] = [];
	// Empty Request ID: each batch's ID comes from its rows, and every run's references are new; the
	// node's memory grows by 10,000 references a round (one n8n database row, read and written whole).
	const parameters = { resource: 'payout', operation: 'bulkCreate', inputMode: 'items', currency: 'INR', remark: 'Bench' };
	return {
		key: 'payoutBatches',
		workflows: () => [
			benchWorkflow('payoutBatches', [{ name: 'Payout Batches', items: itemsCode(ROWS, PAYOUT_ITEM), node: gateway('zero', parameters, 'payout', 3) }]),
			// The same rows in version 2 with Split Into Batches: no memory, the rest the same.
			benchWorkflow('payoutBatchesV2', [{ name: 'Payout V2', items: itemsCode(ROWS, PAYOUT_ITEM), node: gateway('zero', { ...parameters, splitIntoBatches: true }, 'payout', 2) }]),
			// The node's own work alone: every batch built and checked, nothing sent.
			benchWorkflow('payoutBatchesCheck', [{ name: 'Payout Check', items: itemsCode(ROWS, PAYOUT_ITEM), node: gateway('zero', { ...parameters, validateOnly: true }, 'payout', 3) }]),
		],
		async round(n8n: BenchN8n, round: number) {
			const runNode = async () => {
				const run = (await n8n.execute('payoutBatches')).nodes['Payout Batches'];
				if (run.error || run.items !== BATCHES) throw new Error(`Payout Batches: ${run.error ?? `${run.items} items`}`);
				node.push(run.ms);
				nodeMb.push(run.rssGrowthMb);
				const check = (await n8n.execute('payoutBatchesCheck')).nodes['Payout Check'];
				if (check.error || check.items !== BATCHES) throw new Error(`Payout Check: ${check.error ?? `${check.items} items`}`);
				checked.push(check.ms);
				const v2 = (await n8n.execute('payoutBatchesV2')).nodes['Payout V2'];
				if (v2.error || v2.items !== BATCHES) throw new Error(`Payout V2: ${v2.error ?? `${v2.items} items`}`);
				v2ms.push(v2.ms);
			};
			const runAlone = async () => {
				const result = await anchor(['xlsx-write', String(ROWS), '14']);
				alone.push(result.ms);
				aloneMb.push(result.peakRssMb - result.baseRssMb);
			};
			if (round % 2) await runAlone().then(runNode);
			else await runNode().then(runAlone);
		},
		rows: () => [
			atMost(`Payout Bulk Create, ${ROWS} rows × 14 from items, node version 3 (${BATCHES} batches sent, every reference remembered; includes the service's answers)`, 'exceljs alone writing the same cells', node, alone, 'ms', 1.5),
			atMost(`Payout Bulk Create, ${ROWS} rows × 14 from items, node version 2, Split Into Batches (${BATCHES} batches sent, no memory)`, 'exceljs alone writing the same cells', v2ms, alone, 'ms', 1.5),
			atMost(`Payout Bulk Create, ${ROWS} rows × 14 from items, node version 3 (Validate Only: ${BATCHES} files built and checked, not sent)`, 'exceljs alone writing the same cells', checked, alone, 'ms', 1.5),
			atMost(
				`Payout Bulk Create, ${ROWS} rows in ${BATCHES} batches: peak RSS`,
				'exceljs alone writing the same cells',
				nodeMb,
				aloneMb,
				'MB',
				1.0,
				'RSS growth while each ran: n8n’s RSS sampled every 25 ms in the node’s own time window minus its RSS when the node started (the 10,000 input items exist before); exceljs’s peak RSS minus its RSS before writing one 10,000-row file',
			),
		],
	};
}
