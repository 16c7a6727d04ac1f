import {
	addIsoDates,
	earliestToday,
	serviceDateToIso,
} from '../../../../nodes/PaymentGateway/helpers/dates';

describe('serviceDateToIso', () => {
	it.each([
		['05-03-2026 14:22:10', 'UTC', '2026-03-05T14:22:10Z'],
		['05/03/2026 14:22:10', 'UTC', '2026-03-05T14:22:10Z'],
		['05-03-2026 14:22:10', 'Asia/Dubai', '2026-03-05T14:22:10+04:00'],
		['05/03/2026 09:00:00', 'Asia/Kolkata', '2026-03-05T09:00:00+05:30'],
		['15/07/2026', 'Europe/London', '2026-07-15T00:00:00+01:00'],
		['15/01/2026 08:30', 'Europe/London', '2026-01-15T08:30:00Z'],
		['2026-11-21 10:15:00', 'UTC', '2026-11-21T10:15:00Z'],
	])('%s in %s is %s', (text, zone, iso) => {
		expect(serviceDateToIso(text, zone)).toBe(iso);
	});

	it.each([['31-02-2026 10:00:00'], ['2026/01/01'], ['yesterday'], [''], ['12-13-2026 00:00:00']])(
		'%s is not a date',
		(text) => {
			expect(serviceDateToIso(text, 'UTC')).toBeUndefined();
		},
	);

	it('keeps the original fields and adds _iso copies only where they parse', () => {
		const record = { transaction_date: '01-02-2026 03:04:05', transaction_time: 'n/a' };
		expect(addIsoDates(record, ['transaction_date', 'transaction_time', 'missing'], 'UTC')).toEqual(
			{
				transaction_date: '01-02-2026 03:04:05',
				transaction_time: 'n/a',
				transaction_date_iso: '2026-02-01T03:04:05Z',
			},
		);
	});
});

describe('today for "today or later"', () => {
	it('takes the later of the workflow zone and UTC', () => {
		const lateEvening = new Date('2026-11-21T22:30:00Z');
		expect(earliestToday('Asia/Dubai', lateEvening.getTime())).toBe('2026-11-22');
		expect(earliestToday('America/New_York', lateEvening.getTime())).toBe('2026-11-21');
		expect(earliestToday('America/New_York', Date.parse('2026-11-22T02:00:00Z'))).toBe(
			'2026-11-22',
		);
	});
});

describe('serviceDateToIso against Luxon, over a year of wall times', () => {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { DateTime } = require('luxon') as typeof import('luxon');
	const pad = (n: number) => String(n).padStart(2, '0');

	it.each([
		'Europe/Berlin',
		'America/New_York',
		'Australia/Lord_Howe',
		'Pacific/Chatham',
		'Asia/Kathmandu',
	])('gives Luxon’s offset for every hour of 2026 in %s, days of a change included', (zone) => {
		const checked: string[] = [];
		// Shuffled hours, so the per-day offsets are met in any order.
		const hours = Array.from({ length: 365 * 24 }, (_, i) => (i * 7919) % (365 * 24));
		for (const hour of hours) {
			const wall = DateTime.fromObject({ year: 2026, month: 1, day: 1 }, { zone: 'UTC' }).plus({
				hours: hour,
				minutes: 17,
			});
			const local = DateTime.fromObject(
				{ year: wall.year, month: wall.month, day: wall.day, hour: wall.hour, minute: 17 },
				{ zone },
			);
			// Wall times in or next to a change are ambiguous or missing: judged by the day tests above.
			if (local.minus({ hours: 3 }).offset !== local.plus({ hours: 3 }).offset) continue;
			const text = `${pad(wall.day)}-${pad(wall.month)}-${wall.year} ${pad(wall.hour)}:17:00`;
			const expected = local.toISO({ suppressMilliseconds: true })!.replace('+00:00', 'Z');
			if (serviceDateToIso(text, zone) !== expected)
				checked.push(`${text}: ${serviceDateToIso(text, zone)} ≠ ${expected}`);
		}
		expect(checked).toEqual([]);
	});
});
