import type { INodeProperties } from 'n8n-workflow';

import type { NodeMap } from './node.type';
import type { OperationModule } from './operation';
import { RESOURCES } from './resources';
import { LEGACY_TOOL_DESCRIPTIONS } from './tool.legacy';

/** Resource → operation → its module, each with its own tool description: the resource map. */
export const TOOL_OPERATIONS = Object.fromEntries(
	Object.entries(RESOURCES).map(([resource, { operations }]) => [resource, operations]),
) as unknown as { [R in keyof NodeMap]: Record<NodeMap[R], OperationModule> };

const VERSION_3 = { '@version': [{ _cnd: { gte: 3 } }] };
const VERSIONS_1_2 = { '@version': [{ _cnd: { lte: 2 } }] };

function descriptionProperty(
	resource: string,
	operation: string,
	text: string,
	versions: IDataObjectShow,
): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		required: true,
		typeOptions: { rows: 3 },
		displayOptions: {
			show: {
				'@tool': [true],
				descriptionType: ['manual'],
				resource: [resource],
				operation: [operation],
				...versions,
			},
		},
		description:
			'What the model reads about this tool: what it does, which IDs it needs, whether it moves money',
	};
}

type IDataObjectShow = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

/** One property per operation of a resource → operation → text table, in the versions given. */
function descriptionProperties(
	table: Record<string, Record<string, string>>,
	versionsOf: (resource: string, operation: string) => IDataObjectShow,
): INodeProperties[] {
	return Object.entries(table).flatMap(([resource, operations]) =>
		Object.entries(operations).map(([operation, text]) =>
			descriptionProperty(resource, operation, text, versionsOf(resource, operation)),
		),
	);
}

/** Resource → operation → the operation's own tool description. */
export const TOOL_DESCRIPTIONS = Object.fromEntries(
	Object.entries(TOOL_OPERATIONS).map(([resource, operations]) => [
		resource,
		Object.fromEntries(
			Object.entries(operations as Record<string, OperationModule>).map(([operation, module]) => [
				operation,
				module.toolDescription,
			]),
		),
	]),
) as { [R in keyof NodeMap]: Record<NodeMap[R], string> };

const legacy = LEGACY_TOOL_DESCRIPTIONS as Record<string, Record<string, string> | undefined>;

/** Version 3 on where versions 1-2 keep a text of their own; every version for an operation added since. */
const ownTextVersions = (resource: string, operation: string): IDataObjectShow =>
	legacy[resource]?.[operation] === undefined ? {} : VERSION_3;

/**
 * The tool description for n8n's tool variant of the node only ('@tool'): written for a model per
 * operation, editable by the builder. n8n adds its own pair of these parameters to a tool variant
 * only when the node has none; the names and the 'auto' value are n8n's, so saved tools keep working.
 */
export const toolDescriptionProperties: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'descriptionType',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { '@tool': [true] } },
		options: [
			{ name: 'Set Automatically', value: 'auto', description: 'Only the name of the operation' },
			{
				name: 'Set Manually',
				value: 'manual',
				description: 'The description below, written for a model',
			},
		],
		default: 'manual',
	},
	...descriptionProperties(LEGACY_TOOL_DESCRIPTIONS, () => VERSIONS_1_2),
	...descriptionProperties(TOOL_DESCRIPTIONS, ownTextVersions),
];
