import type {
	DataTable,
	DataTableColumn,
	DataTableFilter,
	DataTableRow,
	DataTableRowReturn,
	IDataTableProjectAggregateService,
	IDataTableProjectService,
	INode,
	ListDataTableRowsOptions,
	Workflow,
} from 'n8n-workflow';

type Row = DataTableRowReturn;
interface Held {
	table: DataTable;
	rows: Row[];
	nextId: number;
}

/** n8n 1.123–2.41 (DataTableProxyService.validateRequest): the proxy serves these nodes only. */
const N8N_DATA_TABLE_NODES = [
	'n8n-nodes-base.dataTable',
	'n8n-nodes-base.dataTableTool',
	'n8n-nodes-base.evaluationTrigger',
	'n8n-nodes-base.evaluation',
];

/**
 * The rows a filter selects. An `or` of `eq` on one column (how the payout ledger reads a run's
 * references) is looked up in a set, as a database's IN list is: the same rows, without comparing
 * every row with every value.
 */
function matching(rows: Row[], filter?: DataTableFilter): Row[] {
	const terms = filter?.filters ?? [];
	const column = terms[0]?.columnName;
	const oneColumnEq =
		filter?.type === 'or' &&
		terms.length > 1 &&
		terms.every(
			(t) => t.condition === 'eq' && t.columnName === column && typeof t.value === 'string',
		);
	if (!oneColumnEq) return rows.filter((row) => matches(row, filter));
	const values = new Set(terms.map((t) => t.value));
	return rows.filter((row) => values.has(row[column] as string));
}

function matches(row: Row, filter?: DataTableFilter): boolean {
	if (!filter || filter.filters.length === 0) return true;
	const one = ({ columnName, condition, value }: DataTableFilter['filters'][number]) => {
		const raw = row[columnName];
		const cell = raw instanceof Date ? raw.getTime() : raw;
		const want = value instanceof Date ? value.getTime() : value;
		switch (condition) {
			case 'eq':
				return cell === want;
			case 'neq':
				return cell !== want;
			case 'gt':
				return cell !== null && want !== null && cell > want;
			case 'gte':
				return cell !== null && want !== null && cell >= want;
			case 'lt':
				return cell !== null && want !== null && cell < want;
			case 'lte':
				return cell !== null && want !== null && cell <= want;
			case 'isEmpty':
				return cell === null || cell === '';
			case 'isNotEmpty':
				return cell !== null && cell !== '';
			default: {
				const pattern = String(want).replace(/%/g, '.*').replace(/_/g, '.');
				const flags = condition === 'ilike' ? 'i' : '';
				return new RegExp(`^${pattern}$`, flags).test(String(cell ?? ''));
			}
		}
	};
	return filter.type === 'or' ? filter.filters.some(one) : filter.filters.every(one);
}

/**
 * n8n's data tables as its DataTableProxyService serves them to nodes (packages/cli, modules/
 * data-table), in memory: tables per project, unique names per project, typed columns, ids that
 * only increase, updatedAt stamped on every write, and no unique constraint across rows. Every
 * call waits `delayMs` (a database round trip), so concurrent runs interleave as in n8n.
 * `onlyN8nNodes` refuses other nodes as n8n 1.123–2.41 do.
 */
export class MemoryDataTables {
	readonly tables = new Map<string, Held>();

	delayMs = 0;

	onlyN8nNodes = false;

	calls = 0;

	/** Rows handed out by reads (n8n converts each one: the cost of a read grows with it). */
	rowsRead = 0;

	/**
	 * Inserts wait until this many are waiting (or `gatherMs` passed), so that concurrent runs that
	 * both read before either writes are caught: what a lock must prevent.
	 */
	gatherInserts = 0;

	gatherMs = 1000;

	private waiting: Array<() => void> = [];

	private nextTable = 1;

	private async gather(): Promise<void> {
		if (this.gatherInserts < 2) return;
		await new Promise<void>((resolve) => {
			this.waiting.push(resolve);
			if (this.waiting.length >= this.gatherInserts) this.waiting.splice(0).forEach((go) => go());
			else setTimeout(resolve, this.gatherMs);
		});
	}

	private async roundTrip(): Promise<void> {
		this.calls += 1;
		await new Promise((resolve) => setTimeout(resolve, this.delayMs));
	}

	private check(node: INode): void {
		if (this.onlyN8nNodes && !N8N_DATA_TABLE_NODES.includes(node.type))
			throw new Error('This proxy is only available for Data table nodes');
	}

	clear(): void {
		this.tables.clear();
	}

	/** The rows of the table named `name`, as n8n's Data Table node would read them. */
	rowsOf(name: string): Row[] {
		return [...this.tables.values()].find((held) => held.table.name === name)?.rows ?? [];
	}

	/** The workflow's home project (n8n's ownership service); one project here. */
	async getProjectId(_workflow: Pick<Workflow, 'id'>): Promise<string> {
		return 'harness-project';
	}

	async getDataTableAggregateProxy(
		workflow: Workflow,
		node: INode,
		projectId?: string,
	): Promise<IDataTableProjectAggregateService> {
		this.check(node);
		return this.makeAggregateOperations(projectId ?? (await this.getProjectId(workflow)));
	}

	/** As n8n's provider: the project's operations, with no node check (its helpers check first). */
	makeAggregateOperations(project: string): IDataTableProjectAggregateService {
		const inProject = () => [...this.tables.values()].filter((h) => h.table.projectId === project);
		return {
			getProjectId: () => project,
			createDataTable: async ({ name, columns }) => {
				await this.roundTrip();
				if (inProject().some((h) => h.table.name === name))
					throw new Error(`Data table with name '${name}' already exists in this project`);
				const id = `dt${this.nextTable++}`;
				const now = new Date();
				const table: DataTable = {
					id,
					name,
					projectId: project,
					createdAt: now,
					updatedAt: now,
					columns: columns.map(
						(c, index): DataTableColumn => ({
							id: `${id}c${index}`,
							name: c.name,
							type: c.type,
							index,
							dataTableId: id,
						}),
					),
				};
				this.tables.set(id, { table, rows: [], nextId: 1 });
				return table;
			},
			getManyAndCount: async ({ filter }) => {
				await this.roundTrip();
				const name = filter?.name;
				const ids = [filter?.id].flat().filter((id) => id !== undefined);
				const data = inProject()
					.map((h) => h.table)
					.filter((t) => ids.length === 0 || ids.includes(t.id))
					.filter(
						(t) => typeof name !== 'string' || t.name.toLowerCase().includes(name.toLowerCase()),
					);
				return { count: data.length, data };
			},
			deleteDataTableAll: async () => {
				for (const held of inProject()) this.tables.delete(held.table.id);
				return true;
			},
		};
	}

	async getDataTableProxy(
		workflow: Workflow,
		node: INode,
		dataTableId: string,
		projectId?: string,
	): Promise<IDataTableProjectService> {
		this.check(node);
		const project = projectId ?? (await this.getProjectId(workflow));
		const held = this.tables.get(dataTableId);
		if (!held || held.table.projectId !== project)
			throw new Error(`Data table with ID '${dataTableId}' could not be found in this project`);
		return this.makeDataTableOperations(project, dataTableId);
	}

	/** As n8n's provider: no check that the table is the project's (getDataTableProxy checks). */
	makeDataTableOperations(_projectId: string, dataTableId: string): IDataTableProjectService {
		const held = this.tables.get(dataTableId);
		if (!held) throw new Error(`no data table ${dataTableId}`);
		return this.operations(held);
	}

	private operations(held: Held): IDataTableProjectService {
		const copy = (row: Row): Row => ({ ...row });
		const typed = (data: DataTableRow) => {
			const out: DataTableRow = {};
			for (const [key, value] of Object.entries(data)) {
				const column = held.table.columns.find((c) => c.name === key);
				if (!column) throw new Error(`unknown column name '${key}'`);
				out[key] = column.type === 'date' && value !== null ? new Date(value as string) : value;
			}
			return out;
		};
		const list = (options: Partial<ListDataTableRowsOptions>) => {
			let rows = matching(held.rows, options.filter);
			if (options.sortBy) {
				const [column, direction] = options.sortBy;
				const sign = direction === 'DESC' ? -1 : 1;
				rows = [...rows].sort((a, b) => ((a[column] ?? 0) > (b[column] ?? 0) ? sign : -sign));
			}
			return rows;
		};
		const update = (filter: DataTableFilter, data: DataTableRow) => {
			const now = new Date();
			const changed = matching(held.rows, filter);
			for (const row of changed) Object.assign(row, typed(data), { updatedAt: now });
			return changed.map(copy);
		};
		return {
			updateDataTable: async ({ name }) => ((held.table.name = name), true),
			deleteDataTable: async () => this.tables.delete(held.table.id),
			getColumns: async () => held.table.columns,
			addColumn: async ({ name, type }) => {
				const column = {
					id: `${held.table.id}c${held.table.columns.length}`,
					name,
					type,
					index: held.table.columns.length,
					dataTableId: held.table.id,
				};
				held.table.columns.push(column);
				return column;
			},
			moveColumn: async () => true,
			deleteColumn: async () => true,
			getManyRowsAndCount: async (options) => {
				// Read when the query arrives, answered a round trip later: a write meanwhile is not seen.
				const rows = list(options);
				const skip = options.skip ?? 0;
				const page = rows.slice(skip, options.take === undefined ? undefined : skip + options.take);
				this.rowsRead += page.length;
				await this.roundTrip();
				return { count: rows.length, data: page.map(copy) };
			},
			insertRows: (async (rows: DataTableRow[], returnType: string) => {
				await this.gather();
				await this.roundTrip();
				const now = new Date();
				// A column not given is null, as in n8n's table.
				const empty = Object.fromEntries(held.table.columns.map((c) => [c.name, null]));
				const added = rows.map(
					(data) =>
						({
							...empty,
							...typed(data),
							id: held.nextId++,
							createdAt: now,
							updatedAt: now,
						}) as Row,
				);
				held.rows.push(...added);
				if (returnType === 'all') return added.map(copy);
				if (returnType === 'id') return added.map(({ id }) => ({ id }));
				return { success: true, insertedRows: added.length };
			}) as IDataTableProjectService['insertRows'],
			updateRows: async ({ filter, data }) => {
				await this.roundTrip();
				return update(filter, data);
			},
			upsertRow: async ({ filter, data }) => {
				await this.roundTrip();
				const changed = update(filter, data);
				if (changed.length) return changed;
				const now = new Date();
				const row = { ...typed(data), id: held.nextId++, createdAt: now, updatedAt: now } as Row;
				held.rows.push(row);
				return [copy(row)];
			},
			deleteRows: async ({ filter }) => {
				await this.roundTrip();
				const gone = matching(held.rows, filter);
				held.rows = held.rows.filter((row) => !gone.includes(row));
				return gone.map(copy);
			},
			clearRows: async () => {
				const deletedCount = held.rows.length;
				held.rows = [];
				return { deletedCount };
			},
		};
	}
}

/** The harness's data tables: on unless a test turns them off (N8N_DISABLED_MODULES=data-table). */
export const dataTables = { store: new MemoryDataTables(), enabled: true };
