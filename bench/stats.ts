// Medians, ranges and the printed table.

export interface Row {
	figure: string;
	anchor: string;
	/** Samples of the measured side and of the anchor, in the unit given. */
	a: number[];
	b: number[];
	unit: string;
	/** The ratio a/b (or b/a for speed-ups) compared with the target. */
	ratio: number;
	target: string;
	met: boolean;
	/** Shown instead of the ratio when the target is not a ratio. */
	ratioText?: string;
	note?: string;
	/** Shown for comparison only: no target. */
	reference?: boolean;
}

export function median(values: number[]): number {
	const sorted = [...values].sort((x, y) => x - y);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const fmt = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

/** "median (min–max) unit" of a sample list. */
export function spread(values: number[], unit: string): string {
	if (values.length === 0) return '–';
	return `${fmt(median(values))} (${fmt(Math.min(...values))}–${fmt(Math.max(...values))}) ${unit}`;
}

/** A row whose target is "a/b at most `limit`". */
export function atMost(figure: string, anchor: string, a: number[], b: number[], unit: string, limit: number, note?: string): Row {
	const ratio = median(a) / median(b);
	return { figure, anchor, a, b, unit, ratio, target: `≤ ${limit} ×`, met: ratio <= limit, note };
}

/** A row whose target is "b/a at least `limit`" (a speed-up of a over b). */
export function atLeast(figure: string, anchor: string, a: number[], b: number[], unit: string, limit: number, note?: string): Row {
	const ratio = median(b) / median(a);
	return { figure, anchor, a, b, unit, ratio, target: `≥ ${limit} × faster`, met: ratio >= limit, note };
}

/** The table as Markdown (pasted into docs/performance.md as measured). */
export function table(rows: Row[]): string {
	const lines = [
		'| figure | anchor | node: median (min–max) | anchor: median (min–max) | ratio | target | met? |',
		'|---|---|---|---|---|---|---|',
	];
	for (const row of rows) {
		const cells = [row.figure, row.anchor, spread(row.a, row.unit), spread(row.b, row.unit), row.ratioText ?? `${row.ratio.toFixed(2)} ×`, row.target, row.reference ? '–' : row.met ? 'yes' : '**no**'];
		lines.push(`| ${cells.join(' | ')} |`);
	}
	const notes = rows.filter((row) => row.note).map((row) => `- ${row.figure}: ${row.note}`);
	return [...lines, ...(notes.length ? ['', ...notes] : [])].join('\n');
}
