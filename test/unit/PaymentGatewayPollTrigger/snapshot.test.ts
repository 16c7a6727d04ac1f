import type { IDataObject } from 'n8n-workflow';

import { actionOf } from '../../../nodes/PaymentGatewayPollTrigger/items';
import {
	PollComparison,
	dayOf,
	readSnapshot,
	weekOf,
	writeSnapshot,
} from '../../../nodes/PaymentGatewayPollTrigger/snapshot';
import { windowDays } from '../../../nodes/PaymentGatewayPollTrigger/window';

const tx = (id: string, status: string, date = '20-11-2026 10:00:00'): IDataObject => ({
	transaction_id: id,
	status,
	transaction_date: date,
});
const window = { since: '2026-11-18', today: '2026-11-25', filters: 'f1' };

describe('poll trigger snapshot of statuses', () => {
	it('reads the service date forms and buckets days into seven-day periods', () => {
		expect([
			dayOf('20-11-2026 10:00:00'),
			dayOf('20/11/2026'),
			dayOf('2026-11-20 10:00'),
			dayOf('soon'),
		]).toEqual(['2026-11-20', '2026-11-20', '2026-11-20', undefined]);
		// 1970-01-01 was a Thursday: periods start on Thursdays.
		expect([weekOf('2026-11-19'), weekOf('2026-11-25'), weekOf('2026-11-26')]).toEqual([
			'2026-11-19',
			'2026-11-19',
			'2026-11-26',
		]);
	});

	it('round-trips through static data in the compact form', () => {
		const first = new PollComparison(undefined, window);
		first.see(tx('1', 'CAPTURED'));
		first.see(tx('2', 'captured'));
		first.see(tx('3', 'VOID', '25/11/2026 09:00:00'));
		const data: IDataObject = { leftover: true };
		writeSnapshot(data, first.result());
		expect(data).toEqual({
			v: 1,
			f: 'f1',
			since: '2026-11-18',
			t: { 'CAPTURED 2026-11-19': '1,2', 'VOID 2026-11-19': '3' },
		});
		expect([...readSnapshot(data)!.entries]).toEqual([...first.result().entries]);
		expect(readSnapshot({ v: 2 })).toBeUndefined();
	});

	it('reports new transactions and status changes only, and keeps unseen ones while inside the window', () => {
		const first = new PollComparison(undefined, window);
		['1', '2', '3'].forEach((id) => first.see(tx(id, 'AUTHORISED')));
		first.see(tx('old', 'CAPTURED', '01-11-2026 10:00:00'));
		expect(first.changes).toEqual([]);
		const next = new PollComparison(first.result(), { ...window, since: '2026-11-19' });
		next.see(tx('1', 'AUTHORISED'));
		next.see(tx('2', 'VOID'));
		next.see(tx('2', 'VOID'));
		next.see(tx('4', 'PENDING', '25-11-2026 11:00:00'));
		// Older than the window the last poll read: history.
		next.see(tx('5', 'CAPTURED', '10-11-2026 10:00:00'));
		expect(next.changes.map((c) => [c.record.transaction_id, c.previousStatus])).toEqual([
			['2', 'AUTHORISED'],
			['4', null],
		]);
		const snapshot = next.result();
		// 3 was not met (a shifted page) but is inside the window; "old" left it.
		expect([...snapshot.entries.keys()].sort()).toEqual(['1', '2', '3', '4', '5']);
	});

	it('names the action from the statuses before and after', () => {
		expect([
			actionOf(null, 'CAPTURED'),
			actionOf('AUTHORISED', 'CAPTURED'),
			actionOf('AUTHORISED', 'PARTIALLY_CAPTURE'),
			actionOf(null, 'AUTHORISED'),
			actionOf('CAPTURED', 'PARTIALLY_REFUNDED'),
			actionOf('AUTHORISED', 'VOID'),
			actionOf(null, 'FAILED'),
		]).toEqual(['SALE', 'CAPTURE', 'CAPTURE', 'AUTH', 'REFUND', 'VOID', '']);
	});

	it("starts the window on the earlier of the workflow's and UTC's today", () => {
		const now = Date.parse('2026-11-25T22:30:00Z');
		expect(windowDays('UTC', 7, now)).toEqual({ since: '2026-11-18', today: '2026-11-25' });
		expect(windowDays('Asia/Dubai', 7, now)).toEqual({ since: '2026-11-18', today: '2026-11-26' });
		expect(windowDays('America/New_York', 0, Date.parse('2026-11-26T02:00:00Z'))).toEqual({
			since: '2026-11-25',
			today: '2026-11-26',
		});
	});
});
