import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

export interface HarnessBinaryInput {
	property: string;
	fileName?: string;
	mimeType?: string;
	base64: string;
}

/** Parameters of type 'json' may hold a JSON string or (from workflow JSON) a value. */
function jsonValue<T>(ctx: IExecuteFunctions, name: string, itemIndex: number, empty: T): T {
	const value = ctx.getNodeParameter(name, itemIndex, empty) as unknown;
	if (typeof value !== 'string') return (value ?? empty) as T;
	if (value.trim() === '') return empty;
	try {
		return JSON.parse(value) as T;
	} catch {
		throw new NodeOperationError(ctx.getNode(), `Parameter "${name}" is not valid JSON`);
	}
}

/** Start node: no inputs, emits `items` (and `binary` attached to every item). */
export class HarnessStart implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Start',
		name: 'harness.start',
		group: ['trigger'],
		version: 1,
		description: 'Starts a harness workflow with fixed items',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Items',
				name: 'items',
				type: 'json',
				default: '[{}]',
				description: 'Array of JSON objects to emit',
			},
			{
				displayName: 'Binary',
				name: 'binary',
				type: 'json',
				default: '[]',
				description: 'Array of { property, fileName, mimeType, base64 } added to every item',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		let items = jsonValue<IDataObject | IDataObject[]>(this, 'items', 0, [{}]);
		if (!Array.isArray(items)) items = [items];
		const binaries = jsonValue<HarnessBinaryInput[]>(this, 'binary', 0, []);
		const output: INodeExecutionData[] = [];
		for (const [index, json] of items.entries()) {
			const item: INodeExecutionData = { json, pairedItem: { item: 0 } };
			for (const { property, fileName, mimeType, base64 } of binaries) {
				// The real helper, so downstream getBinaryDataBuffer/assertBinaryData see genuine data.
				const data = await this.helpers.prepareBinaryData(
					Buffer.from(base64, 'base64'),
					fileName,
					mimeType,
				);
				item.binary = { ...item.binary, [property]: data };
			}
			output[index] = item;
		}
		return [output];
	}
}

/** Passes items through; optional `assign` fields (expressions allowed) are merged into json. */
export class HarnessNoOp implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness No Op',
		name: 'harness.noOp',
		group: ['transform'],
		version: 1,
		description: 'Passes items through',
		defaults: { name: 'No Op' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'Assign',
				name: 'assign',
				type: 'json',
				default: '{}',
				description: 'Fields set on every item, evaluated per item',
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		return [
			items.map((item, itemIndex) => {
				const assign = jsonValue<IDataObject>(this, 'assign', itemIndex, {});
				if (Object.keys(assign).length === 0) return item;
				return { ...item, json: { ...item.json, ...assign }, pairedItem: { item: itemIndex } };
			}),
		];
	}
}

export const harnessNodeTypes: Record<string, INodeType> = {
	'harness.start': new HarnessStart(),
	'harness.noOp': new HarnessNoOp(),
};
