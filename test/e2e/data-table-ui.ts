// n8n 2.41's data tables as a user reaches them in the editor: Overview → Data tables → a
// table's rows, and the Data Table node added from the nodes panel. Everything is judged by what
// the page shows (elements and text waited for), never by a fixed wait.
import type { Locator, Page } from 'playwright-core';

export type Row = Record<string, string>;

/** Overview (sidebar) → Data tables tab → the table's card: its rows page, once rows are shown. */
export async function openDataTableFromOverview(page: Page, name: string): Promise<Locator> {
	await page.locator('[data-test-id="project-home-menu-item"]').click();
	await page.locator('[data-test-id="project-tabs"]').waitFor();
	await page.locator('[data-test-id="tab-data-tables"]').click();
	await page.waitForURL((url) => url.pathname === '/home/datatables');
	const card = page.locator('[data-test-id="data-table-card"]', { hasText: name });
	await card.locator('[data-test-id="data-table-card-name"]', { hasText: name }).waitFor();
	await card.click();
	const grid = page.locator('[data-test-id="data-table-grid"]');
	await grid.locator('.ag-center-cols-container .ag-row').first().waitFor();
	return grid;
}

/** The number of rows the table's pagination says it holds ("Total 3"). */
export async function totalRows(page: Page): Promise<number> {
	const total = page.locator('[data-test-id="pagination-total"]');
	await total.filter({ hasText: /Total \d+/ }).waitFor();
	return Number(/Total (\d+)/.exec(await total.innerText())![1]);
}

/** Waits until the grid shows exactly `count` rows (on one page: 20 rows unless changed). */
export async function waitForRowCount(grid: Locator, count: number): Promise<void> {
	await grid
		.page()
		.waitForFunction(
			({ element, count }) =>
				(element as any).querySelectorAll('.ag-center-cols-container .ag-row').length === count,
			{ element: await grid.elementHandle(), count },
		);
}

interface Rendered {
	/** col-id → the column's name, for the columns rendered now. */
	headers: Array<[string, string]>;
	/** Per row index: col-id → cell text. */
	rows: Array<{ index: string; cells: Array<[string, string]> }>;
}

const rendered = async (grid: Locator): Promise<Rendered> => ({
	headers: await grid
		.locator('.ag-header-cell[col-id]')
		.evaluateAll((cells) =>
			cells.map((cell: any) => [cell.getAttribute('col-id'), cell.innerText.trim()]),
		),
	rows: await grid.locator('.ag-center-cols-container .ag-row').evaluateAll((rows) =>
		rows.map((row: any) => ({
			index: row.getAttribute('row-index'),
			cells: [...row.querySelectorAll('.ag-cell[col-id]')].map((cell: any) => [
				cell.getAttribute('col-id'),
				cell.textContent.trim(),
			]),
		})),
	),
});

/**
 * The grid's rows by column name. The grid renders only the columns in view, so it is scrolled
 * to the right as a user does (mouse wheel) until every column of `columns` has been seen.
 */
export async function readGrid(grid: Locator, columns: string[]): Promise<Row[]> {
	const names = new Map<string, string>();
	const rows = new Map<string, Row>();
	const page = grid.page();
	// Over the first row's top edge (ag-grid's scrollbar overlays the bottom of a short grid).
	await grid
		.locator('.ag-center-cols-container .ag-row')
		.first()
		.hover({ position: { x: 40, y: 4 } });
	// From the first column on: back to the left end if the grid was scrolled before (by the
	// distance scrolled: ag-grid ignores a wheel far beyond its width).
	const scrolled = await grid
		.locator('.ag-body-horizontal-scroll-viewport')
		.evaluate((element: any) => Number(element.scrollLeft));
	if (scrolled > 0) await page.mouse.wheel(-scrolled, 0);
	// n8n's own first column (the row id) is rendered again.
	await grid.locator('.ag-header-cell[col-id="id"]').waitFor();
	for (;;) {
		const now = await rendered(grid);
		for (const [id, name] of now.headers) names.set(id, name);
		for (const { index, cells } of now.rows) {
			const row = rows.get(index) ?? {};
			for (const [id, text] of cells) if (names.has(id)) row[names.get(id)!] = text;
			rows.set(index, row);
		}
		const seen = new Set(names.values());
		if (columns.every((column) => seen.has(column))) break;
		await page.mouse.wheel(600, 0);
		// Scrolled: a column not seen before is rendered (the wheel moves more than one column).
		await page.waitForFunction(
			({ element, known }) =>
				[...(element as any).querySelectorAll('.ag-header-cell[col-id]')].some(
					(cell: any) => !known.includes(cell.getAttribute('col-id')),
				),
			{ element: await grid.elementHandle(), known: [...names.keys()] },
		);
	}
	return [...rows.entries()]
		.sort(([a], [b]) => Number(a) - Number(b))
		.map(([, row]) => Object.fromEntries(columns.map((column) => [column, row[column]])));
}

/** A select parameter of the node panel: opens it and picks the option whose text starts so. */
async function chooseOption(ndv: Locator, parameter: string, startsWith: string): Promise<void> {
	const input = ndv.locator(`[data-test-id="parameter-input-${parameter}"] input`).first();
	await input.click();
	const list = ndv.page().locator(`[id="${await input.getAttribute('aria-controls')}"]`);
	await list.locator('li', { hasText: new RegExp(`^${startsWith}`) }).click();
	await list.waitFor({ state: 'hidden' });
}

/**
 * In a new workflow, from the nodes panel's search: Data table → Get row(s) (n8n adds a manual
 * trigger before it); the table chosen from the node's list, one condition `column` equals
 * `value`; executed from the node panel. Returns the panel, its output shown.
 */
export async function getRowsWithDataTableNode(
	page: Page,
	table: string,
	column: string,
	value: string,
): Promise<Locator> {
	await page.locator('[data-test-id="add-resource-workflow"]').click();
	await page.locator('[data-test-id="canvas-add-button"]').click();
	await page.locator('[data-test-id="node-creator-search-bar"]').fill('Data table');
	const item = (name: string) =>
		page.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^${name}$`) });
	await item('Data table').click();
	await item('Get row\\(s\\)').click();
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.locator('[data-test-id="node-parameters"]').waitFor();

	await ndv
		.locator('[data-test-id="resource-locator-dataTableId"] [data-test-id="rlc-input"]')
		.click();
	const option = page.locator('[data-test-id="rlc-item"]', { hasText: table });
	await option.click();
	await option.waitFor({ state: 'hidden' });

	await ndv
		.locator('[data-test-id="fixed-collection-filters"] [data-test-id="fixed-collection-add"]')
		.click();
	await chooseOption(ndv, 'keyName', `${column} `);
	await ndv.locator('[data-test-id="parameter-input-keyValue"] input').fill(value);
	await ndv.locator('[data-test-id="node-execute-button"]').click();
	await ndv.locator('[data-test-id="node-run-status-success"]').waitFor();
	return ndv;
}

/** The node panel's output, as its Table view shows it: one row per item, by column name. */
export async function outputTable(ndv: Locator): Promise<Row[]> {
	const table = ndv.locator(
		'[data-test-id="output-panel"] [data-test-id="ndv-data-container"] table',
	);
	const none = ndv.getByText('No output data returned');
	await table.or(none).first().waitFor();
	if (await none.isVisible()) return [];
	return await table.evaluate((element: any) => {
		const headers = [...element.querySelectorAll('thead th')].map((th: any) => th.innerText.trim());
		return [...element.querySelectorAll('tbody tr')].map((tr: any) =>
			Object.fromEntries(
				[...tr.querySelectorAll('td')].map((td: any, i: number) => [
					headers[i],
					td.innerText.trim(),
				]),
			),
		);
	});
}
