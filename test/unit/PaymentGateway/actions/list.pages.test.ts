import type { IDataObject } from 'n8n-workflow';

import { walkPages } from '../../../../nodes/PaymentGateway/actions/list.pages';
import { addIsoDatesInPlace } from '../../../../nodes/PaymentGateway/helpers/dates';

/** A list of `count` records served page by page, logging each fetch and each record turned into an item. */
function list(count: number, total: number | undefined = count) {
	const log: string[] = [];
	const fetchPage = async (page: number, perPage: number) => {
		log.push(`fetch ${page}/${perPage}`);
		const from = (page - 1) * perPage;
		const records = Array.from(
			{ length: Math.max(0, Math.min(perPage, count - from)) },
			(_, i) => ({ n: from + i }),
		);
		return { records, total };
	};
	const toItem = (record: IDataObject) => {
		log.push(`item ${String(record.n)}`);
		return { json: record };
	};
	return { log, fetchPage, toItem };
}

describe('walkPages', () => {
	it('turns each page into items before it asks for the next', async () => {
		const { log, fetchPage, toItem } = list(5);
		const out = await walkPages(fetchPage, { returnAll: true, limit: 0 }, 2, toItem);
		expect(out.map((i) => i.json.n)).toEqual([0, 1, 2, 3, 4]);
		expect(log).toEqual([
			'fetch 1/2',
			'item 0',
			'item 1',
			'fetch 2/2',
			'item 2',
			'item 3',
			'fetch 3/2',
			'item 4',
		]);
	});

	it('never turns a record past Limit into an item', async () => {
		const { log, fetchPage, toItem } = list(10);
		const out = await walkPages(fetchPage, { returnAll: false, limit: 5 }, 3, toItem);
		expect(out).toHaveLength(5);
		expect(log.filter((l) => l.startsWith('item'))).toHaveLength(5);
		expect(log.filter((l) => l.startsWith('fetch'))).toEqual(['fetch 1/3', 'fetch 2/3']);
	});

	it('asks for one page of Limit when it fits', async () => {
		const { log, fetchPage, toItem } = list(10);
		await walkPages(fetchPage, { returnAll: false, limit: 4 }, 100, toItem);
		expect(log[0]).toBe('fetch 1/4');
		expect(log.filter((l) => l.startsWith('fetch'))).toHaveLength(1);
	});

	it('stops on total_records when the last page is full, and on a short page without a total', async () => {
		const full = list(4);
		await walkPages(full.fetchPage, { returnAll: true, limit: 0 }, 2, full.toItem);
		expect(full.log.filter((l) => l.startsWith('fetch'))).toHaveLength(2);
		const noTotal = list(5, undefined);
		await walkPages(noTotal.fetchPage, { returnAll: true, limit: 0 }, 2, noTotal.toItem);
		expect(noTotal.log.filter((l) => l.startsWith('fetch'))).toHaveLength(3);
	});
});

describe('addIsoDatesInPlace', () => {
	it('adds the ISO copy to the record itself and keeps the original', () => {
		const record: IDataObject = { created_date: '2026-03-04 10:20:30', other: 'x' };
		const same = addIsoDatesInPlace(record, ['created_date', 'missing'], 'UTC');
		expect(same).toBe(record);
		expect(record).toEqual({
			created_date: '2026-03-04 10:20:30',
			created_date_iso: '2026-03-04T10:20:30Z',
			other: 'x',
		});
	});
});
