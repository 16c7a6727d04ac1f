import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { readTable } from '../fields/read';
import type { ReadResult } from '../fields/read';
import type { Field, FieldTable } from '../fields/types';

/** Return All, Limit and Simplify: declared once for every list operation. */

type Show = NonNullable<NonNullable<INodeProperties['displayOptions']>['show']>;

export const returnAllField: Field = {
	name: 'returnAll',
	displayName: 'Return All',
	type: 'boolean',
	description: 'Whether to return all results or only up to a given limit',
};

/**
 * Limit, shown while Return All is off. `show` is the operation's own condition: the editor key
 * order (resource, operation, returnAll) is part of the saved-workflow contract.
 */
export const limitField = (show: Show, max?: number): Field => ({
	name: 'limit',
	displayName: 'Limit',
	label: 'limit',
	type: 'number',
	integer: true,
	min: 1,
	max,
	required: true,
	description: 'Max number of results to return',
	ui: {
		default: 50,
		displayOptions: { show: { ...show, returnAll: [false] } },
	},
});

export const simplifyField: Field = {
	name: 'simplify',
	displayName: 'Simplify',
	type: 'boolean',
	description: 'Whether to return a simplified version of the response instead of the raw data',
	ui: { default: true },
};

export interface ListSettings {
	returnAll: boolean;
	/** 0 with Return All. */
	limit: number;
	simplify: boolean;
}

/**
 * Reads a list operation's table for one item: Limit only while Return All is off (hidden, it is
 * neither read nor checked). Return All off and Simplify on when not given, as in the editor.
 */
export function readListTable(
	ctx: IExecuteFunctions,
	itemIndex: number,
	table: FieldTable,
): ReadResult & { list: ListSettings } {
	const rest = table.filter((entry) => entry.name !== 'limit');
	const read = readTable(ctx, itemIndex, rest);
	const returnAll = read.values.returnAll === true;
	let limit = 0;
	if (!returnAll) {
		const limitEntry = table.find((entry) => entry.name === 'limit');
		const limitRead = readTable(ctx, itemIndex, limitEntry ? [limitEntry] : []);
		read.violations.unshift(...limitRead.violations);
		limit = typeof limitRead.values.limit === 'number' ? limitRead.values.limit : 0;
	}
	const simplify = read.values.simplify !== false;
	return { ...read, list: { returnAll, limit, simplify } };
}
