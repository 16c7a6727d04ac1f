import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../fields/properties';
import type { FieldTable } from '../fields/types';
import type { OperationFacts } from './tool';
import { describeTool } from './tool';

/** An operation's entry in its resource's Operation list; `value` is its key in the resource's map. */
export type OperationOption = Required<
	Pick<INodePropertyOptions, 'name' | 'description' | 'action'>
> & { value: string };

type Described = {
	option: OperationOption;
	/** The operation's own parameters, each shown for its resource and operation. */
	description: INodeProperties[];
	/** What a model reads about it when the node is an agent's tool (node version 3 on). */
	toolDescription: string;
};

export type ItemOperation = Described & {
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
	/** True when this run sends every input item in one request (executeAll), not item by item. */
	takesAllItems?: (this: IExecuteFunctions) => boolean;
	executeAll?: (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;
};

/** An operation with outputs of its own (Wait for Payment's three): it runs once, before any item loop. */
export type WholeRunOperation = Described & {
	run: (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;
};

export type OperationModule = ItemOperation | WholeRunOperation;

/**
 * What an operation declared over a field table does with one item, its rules read from the table;
 * its facts too, so that what it sends (retried or not) is what its tool text says.
 */
export type RunItem<F extends OperationFacts = OperationFacts> = (
	ctx: IExecuteFunctions,
	itemIndex: number,
	table: FieldTable,
	facts: F,
) => Promise<INodeExecutionData[]>;

export interface TableOperationSpec<O extends OperationOption, F extends OperationFacts> {
	resource: string;
	option: O;
	table: FieldTable;
	facts: F;
	/** What it does and needs, said to a model; the sentences of its facts follow. */
	tool: string;
	/** Parameters shown above the table's (a notice). */
	before?: INodeProperties[];
	run: RunItem<F>;
}

/**
 * The skeleton every operation over a field table shares, declared once: its parameters shown for
 * its resource and operation, its tool description written from its facts, and an execute that
 * hands the item and the table to what the operation does.
 */
export function tableOperation<const O extends OperationOption, F extends OperationFacts>(
	spec: TableOperationSpec<O, F>,
) {
	const { option, table, facts, run } = spec;
	const show = { resource: [spec.resource], operation: [option.value] };
	return {
		option,
		table,
		facts,
		toolDescription: describeTool(spec.tool, facts),
		description: updateDisplayOptions({ show }, [
			...(spec.before ?? []),
			...tableProperties(table),
		]),
		async execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
			return await run(this, itemIndex, table, facts);
		},
	};
}
