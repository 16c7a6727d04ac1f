import type { IDataObject } from 'n8n-workflow';

/**
 * What the poll trigger keeps between polls (its snapshot of statuses), in the node's static data: the status of every
 * transaction of the look-back window, nothing else. The list carries no "last changed" time, so a
 * change can only be seen by comparing each transaction's status with the one remembered.
 *
 * Stored compactly as `{ v, f, since, t: { "<status> <YYYY-MM-DD>": "id,id,…" } }`, grouped by
 * status and by the week of the transaction date (the date of the week's first day): a window has
 * few statuses and weeks, so each transaction costs its id and a comma.
 */
export interface StatusSnapshot {
	/** Fingerprint of the filters the statuses were read with; other filters start a new baseline. */
	filters: string;
	/** First day (YYYY-MM-DD) of the window the last complete poll read. */
	since: string;
	/** transaction_id → its status and its transaction day. */
	entries: Map<string, Entry>;
}

export interface Entry {
	status: string;
	/** First day (YYYY-MM-DD) of the week of transaction_date: when it leaves the window, the entry goes. */
	week: string;
}

const DAY_MS = 86400000;

// A window has few distinct days and each poll meets them thousands of times.
const weeks = new Map<string, string>();

/** The first day of the seven-day period (counted from 1970-01-01) that holds a YYYY-MM-DD day. */
export function weekOf(day: string): string {
	let week = weeks.get(day);
	if (week !== undefined) return week;
	const days = Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
	week = Number.isFinite(days)
		? new Date((days - (days % 7)) * DAY_MS).toISOString().slice(0, 10)
		: day;
	if (weeks.size > 5000) weeks.clear();
	weeks.set(day, week);
	return week;
}

const FORMAT_VERSION = 1;

/** More than this in the window is refused: the state must stay small enough for static data. */
export const MAX_REMEMBERED = 50000;

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The snapshot kept in static data, or undefined when there is none yet (or of an unknown form). */
export function readSnapshot(data: IDataObject): StatusSnapshot | undefined {
	if (
		data.v !== FORMAT_VERSION ||
		typeof data.f !== 'string' ||
		typeof data.since !== 'string' ||
		!isObject(data.t)
	) {
		return undefined;
	}
	const entries = new Map<string, Entry>();
	for (const [group, ids] of Object.entries(data.t)) {
		const at = group.lastIndexOf(' ');
		if (at < 0 || typeof ids !== 'string' || ids === '') continue;
		const entry: Entry = { status: group.slice(0, at), week: group.slice(at + 1) };
		for (const id of ids.split(',')) entries.set(id, entry);
	}
	return { filters: data.f, since: data.since, entries };
}

/** Writes the snapshot into static data (replacing what was there). */
export function writeSnapshot(data: IDataObject, snapshot: StatusSnapshot): void {
	const groups: Record<string, string[]> = {};
	for (const [id, { status, week }] of snapshot.entries)
		(groups[`${status} ${week}`] ??= []).push(id);
	const t: IDataObject = {};
	for (const group of Object.keys(groups).sort()) t[group] = groups[group].join(',');
	for (const key of Object.keys(data))
		if (!['v', 'f', 'since', 't'].includes(key)) delete data[key];
	data.v = FORMAT_VERSION;
	data.f = snapshot.filters;
	data.since = snapshot.since;
	data.t = t;
}

const SERVICE_DAY = /^(\d{2})[-/](\d{2})[-/](\d{4})/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** YYYY-MM-DD of a service date (DD-MM-YYYY or DD/MM/YYYY, or ISO), as the service wrote it. */
export function dayOf(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	const service = SERVICE_DAY.exec(text);
	if (service) return `${service[3]}-${service[2]}-${service[1]}`;
	const iso = ISO_DAY.exec(text);
	return iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : undefined;
}

/** One transaction that is new or whose status changed since the last poll. */
export interface Change {
	record: IDataObject;
	/** null for a transaction not seen before. */
	previousStatus: string | null;
}

const statusOf = (record: IDataObject) =>
	String(record.status ?? '')
		.trim()
		.toUpperCase();

/**
 * Compares one poll's walk over the window with the snapshot, transaction by transaction, as pages
 * arrive. Without a snapshot (first activation, other filters) it only records: no history is emitted.
 */
export class PollComparison {
	private readonly next = new Map<string, Entry>();

	readonly changes: Change[] = [];

	constructor(
		private readonly previous: StatusSnapshot | undefined,
		private readonly window: { since: string; today: string; filters: string },
	) {}

	get baseline(): boolean {
		return this.previous === undefined;
	}

	get size(): number {
		return this.next.size;
	}

	see(record: IDataObject): void {
		const id = String(record.transaction_id ?? '').trim();
		// Without an id nothing can be tracked; a repeat (the list shifted while paging) is seen once.
		if (id === '' || this.next.has(id)) return;
		const day = dayOf(record.transaction_date) ?? this.window.today;
		const entry: Entry = { status: statusOf(record), week: weekOf(day) };
		this.next.set(id, entry);
		if (!this.previous) return;
		const before = this.previous.entries.get(id);
		if (before === undefined) {
			// Older than the window the last poll read (the window grew): history, not news.
			if (day >= this.previous.since) this.changes.push({ record, previousStatus: null });
		} else if (before.status !== entry.status) {
			this.changes.push({ record, previousStatus: before.status });
		}
	}

	/**
	 * The snapshot after this poll. A remembered transaction the walk did not meet is kept while its
	 * week reaches into the window (a page may have shifted under the walk), so it never comes back
	 * as new; past the window it goes.
	 */
	result(): StatusSnapshot {
		const firstWeek = weekOf(this.window.since);
		if (this.previous) {
			for (const [id, entry] of this.previous.entries) {
				if (!this.next.has(id) && entry.week >= firstWeek) this.next.set(id, entry);
			}
		}
		return { filters: this.window.filters, since: this.window.since, entries: this.next };
	}
}

/** Whether a snapshot was read with these filters; otherwise it is a new baseline. */
export const sameFilters = (
	snapshot: StatusSnapshot | undefined,
	filters: string,
): StatusSnapshot | undefined => (snapshot && snapshot.filters === filters ? snapshot : undefined);
