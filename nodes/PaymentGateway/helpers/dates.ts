const SERVICE_DATE_TIME = /^(\d{2})[-/](\d{2})[-/](\d{4})(?:\s+(\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

// Building an Intl.DateTimeFormat costs far more than using one: one per time zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
	let formatter = formatters.get(timeZone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		formatters.set(timeZone, formatter);
	}
	return formatter;
}

const PART_INDEX: Record<string, number> = {
	year: 0,
	month: 1,
	day: 2,
	hour: 3,
	minute: 4,
	second: 5,
};

/** Wall-clock fields [year, month, day, hour, minute, second] of an instant in `timeZone`. */
export function wallClock(instant: number, timeZone: string): number[] {
	const fields = [0, 0, 0, 0, 0, 0];
	for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
		const index = PART_INDEX[part.type];
		if (index !== undefined) fields[index] = Number(part.value);
	}
	return fields;
}

function exactOffsetMinutes(instant: number, timeZone: string): number {
	const [year, month, day, hour, minute, second] = wallClock(instant, timeZone);
	return Math.round((Date.UTC(year, month - 1, day, hour, minute, second) - instant) / 60000);
}

const DAY_MS = 86400000;
const MAX_CACHED_DAYS = 50000;
// Offsets by zone and UTC day, for days without a change of offset: long lists repeat the same days,
// and asking Intl costs microseconds per call.
const dayOffsets = new Map<string, Map<number, number>>();

/** Offset of `timeZone` from UTC in minutes at the given instant. */
function zoneOffsetMinutes(instant: number, timeZone: string): number {
	if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 0;
	const day = Math.floor(instant / DAY_MS);
	let days = dayOffsets.get(timeZone);
	if (!days) dayOffsets.set(timeZone, (days = new Map()));
	const cached = days.get(day);
	if (cached !== undefined) return cached;
	const first = exactOffsetMinutes(day * DAY_MS, timeZone);
	const last = exactOffsetMinutes((day + 1) * DAY_MS - 1000, timeZone);
	// A day with a change (daylight saving) is asked exactly, every time.
	if (first !== last) return exactOffsetMinutes(instant, timeZone);
	if (days.size >= MAX_CACHED_DAYS) days.clear();
	days.set(day, first);
	return first;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD HH:mm of an instant in `timeZone`. */
export function wallTimeText(instant: number, timeZone: string): string {
	const [year, month, day, hour, minute] = wallClock(instant, timeZone);
	return `${year}-${pad2(month)}-${pad2(day)} ${pad2(hour)}:${pad2(minute)}`;
}

/** Today's date as YYYY-MM-DD in `timeZone`. */
export const todayIn = (timeZone: string, now = Date.now()) =>
	wallTimeText(now, timeZone).slice(0, 10);

/**
 * The earliest date the service can be assumed to take as "today or later": the later of today in
 * the workflow's time zone and today in UTC, since the service's own zone is not known.
 */
export function earliestToday(timeZone: string, now = Date.now()): string {
	const local = todayIn(timeZone, now);
	const utc = todayIn('UTC', now);
	return local > utc ? local : utc;
}

function formatOffset(minutes: number): string {
	if (minutes === 0) return 'Z';
	const sign = minutes > 0 ? '+' : '-';
	const abs = Math.abs(minutes);
	return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function wallTimeToIso(fields: number[], timeZone: string): string | undefined {
	const [year, month, day, hour, minute, second] = fields;
	const guess = Date.UTC(year, month - 1, day, hour, minute, second);
	const check = new Date(guess);
	if (
		check.getUTCMonth() !== month - 1 ||
		check.getUTCDate() !== day ||
		hour > 23 ||
		minute > 59 ||
		second > 59
	) {
		return undefined;
	}
	let offset = zoneOffsetMinutes(guess, timeZone);
	offset = zoneOffsetMinutes(guess - offset * 60000, timeZone);
	const pad = (n: number, width = 2) => String(n).padStart(width, '0');
	return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${formatOffset(offset)}`;
}

/**
 * ISO 8601 copy of a service date (DD-MM-YYYY or DD/MM/YYYY, with optional HH:mm[:ss], or
 * YYYY-MM-DD HH:mm[:ss]). The service does not say which time zone its dates are in; they are read
 * in `timeZone` (the workflow's). Undefined when the text is not such a date.
 */
export function serviceDateToIso(text: unknown, timeZone: string): string | undefined {
	if (typeof text !== 'string') return undefined;
	const trimmed = text.trim();
	let fields: number[] | undefined;
	const service = SERVICE_DATE_TIME.exec(trimmed);
	if (service) {
		const [, d, m, y, h, min, s] = service;
		fields = [y, m, d, h ?? '0', min ?? '0', s ?? '0'].map(Number);
	} else {
		const iso = ISO_DATE_TIME.exec(trimmed);
		if (iso) {
			const [, y, m, d, h, min, s] = iso;
			fields = [y, m, d, h ?? '0', min ?? '0', s ?? '0'].map(Number);
		}
	}
	return fields ? wallTimeToIso(fields, timeZone) : undefined;
}

/**
 * Adds `<field>_iso` to a record the node owns (freshly parsed from a response): in place, since a
 * copy per record is what made long lists slow.
 */
export function addIsoDatesInPlace<T extends Record<string, unknown>>(
	record: T,
	fields: readonly string[],
	timeZone: string,
): T {
	for (const field of fields) {
		const iso = serviceDateToIso(record[field], timeZone);
		if (iso) (record as Record<string, unknown>)[`${field}_iso`] = iso;
	}
	return record;
}

/** Adds `<field>_iso` next to every listed date field that parses, on a copy; the originals stay. */
export function addIsoDates<T extends Record<string, unknown>>(
	record: T,
	fields: readonly string[],
	timeZone: string,
): T {
	return addIsoDatesInPlace({ ...record }, fields, timeZone);
}
