/**
 * Capability "data tables": n8n's data table service as n8n gave it to this node's execution
 * (`additionalData['data-table'].dataTableProxyProvider`, n8n-core's data-table-helper-functions).
 * n8n 1.123–2.41 keep the public helpers (`getDataTableAggregateProxy` / `getDataTableProxy`) to
 * n8n's own Data Table nodes: the provider's `validateRequest` refuses every other node type. The
 * same provider's project-scoped operations (`getProjectId`, `makeAggregateOperations`,
 * `makeDataTableOperations`), which those helpers end in, are used here with the same project
 * n8n would choose (the execution's `dataTableProjectId`, else the workflow's home project) and the
 * same check that a table exists in that project.
 */
import type {
	IDataTableProjectAggregateService,
	IDataTableProjectService,
	IExecuteFunctions,
	IHookFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { absent, changed, found, type Capability } from './load';

const NAME = 'data tables';

export interface DataTables {
	/** The workflow's project's tables: list, create. */
	aggregate(): Promise<IDataTableProjectAggregateService>;
	/** One table of that project; rejects when the project has no table of that id. */
	table(dataTableId: string): Promise<IDataTableProjectService>;
}

interface Provider {
	getProjectId(workflow: { id?: string }): Promise<string>;
	makeAggregateOperations(projectId: string): IDataTableProjectAggregateService;
	makeDataTableOperations(projectId: string, dataTableId: string): IDataTableProjectService;
}

const METHODS = ['getProjectId', 'makeAggregateOperations', 'makeDataTableOperations'] as const;
const AGGREGATE = ['getProjectId', 'getManyAndCount', 'createDataTable'] as const;

interface Given {
	'data-table'?: { dataTableProxyProvider?: unknown };
	dataTableProjectId?: string;
}

/** Executions, webhooks (results posts) and activation (the results address) alike. */
export type DataTableContext = IExecuteFunctions | IWebhookFunctions | IHookFunctions;

const missing = (object: unknown, names: readonly string[]) =>
	names.filter((name) => typeof (object as Record<string, unknown>)?.[name] !== 'function');

function use(ctx: DataTableContext, provider: Provider, given: Given): DataTables {
	let projectId: Promise<string> | undefined;
	const project = async () =>
		await (projectId ??= given.dataTableProjectId
			? Promise.resolve(given.dataTableProjectId)
			: provider.getProjectId(ctx.getWorkflow()));
	const aggregate = async () => {
		const operations = provider.makeAggregateOperations(await project());
		const gone = missing(operations, AGGREGATE);
		if (gone.length) return await changed(NAME, `its project operations lack ${gone.join(', ')}`);
		return operations;
	};
	return {
		aggregate,
		table: async (dataTableId) => {
			// As n8n's getDataTableProxy (2.x): a table of another project is not served.
			const { count } = await (
				await aggregate()
			).getManyAndCount({ filter: { id: dataTableId }, take: 1 });
			if (count === 0)
				throw new Error(`Data table with ID '${dataTableId}' could not be found in this project`);
			return provider.makeDataTableOperations(await project(), dataTableId);
		},
	};
}

/**
 * Found: n8n's data table service for the node's project. Absent outside n8n and where n8n's
 * data table module is off (N8N_DISABLED_MODULES=data-table). Changed: the provider lacks an
 * operation this package uses (each named).
 */
export async function dataTables(ctx: DataTableContext): Promise<Capability<DataTables>> {
	const given = (ctx as unknown as { additionalData?: Given }).additionalData;
	if (!given) return absent('not inside n8n');
	const provider = given['data-table']?.dataTableProxyProvider;
	if (!provider) return absent("n8n's data table module is off");
	const gone = missing(provider, METHODS);
	if (gone.length)
		return await changed(NAME, `n8n's data table provider has no ${gone.join(', ')}`);
	return found(use(ctx, provider as Provider, given));
}
