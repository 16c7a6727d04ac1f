import {
	applyResult,
	recordsByReference,
	recordsByRequestId,
} from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/results';
import { queuedLedger } from './queuedLedger';

/** `refs` queued in batch n8n-batch-1. */
const queuedIn = async (refs: string[]) => await queuedLedger('results', refs, 'n8n-batch-1');

describe('payout ledger: results applied by the one transition rule', () => {
	it('processed with a UTR, then reversed; a late failed and a repeat change nothing', async () => {
		const { table, key } = await queuedIn(['A', 'B']);
		expect(
			await applyResult(table, key, { reference_no: 'A', state: 'processed', utr: 'UTR1' }),
		).toMatchObject({
			applied: true,
			record: { state: 'processed', utr: 'UTR1' },
		});
		expect(
			await applyResult(table, key, { reference_no: 'A', state: 'processed', utr: 'UTR1' }),
		).toMatchObject({ applied: false, why: 'ignored' });
		expect(
			await applyResult(table, key, { reference_no: 'A', state: 'failed', reason: 'late' }),
		).toMatchObject({ applied: false, why: 'ignored' });
		expect(await applyResult(table, key, { reference_no: 'A', state: 'reversed' })).toMatchObject({
			applied: true,
			record: { state: 'reversed', utr: 'UTR1' },
		});
		expect(
			await applyResult(table, key, {
				reference_no: 'B',
				state: 'failed',
				reason: 'Account closed',
			}),
		).toMatchObject({ applied: true });
		expect(await applyResult(table, key, { reference_no: 'Z', state: 'processed' })).toMatchObject({
			applied: false,
			why: 'unknown reference',
		});
		expect(
			await applyResult(table, key, { reference_no: 'B', state: 'processed', request_id: 'other' }),
		).toMatchObject({ applied: false, why: 'other attempt' });
		expect(
			(await recordsByReference(table, key, ['B', 'Z'])).map((r) => [
				r.reference_no,
				r.state,
				r.reason,
			]),
		).toEqual([['B', 'failed', 'Account closed']]);
		expect(
			(await recordsByRequestId(table, key, 'n8n-batch-1')).map((r) => r.reference_no),
		).toEqual(['A', 'B']);
	});
});
