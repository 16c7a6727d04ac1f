import { createHash } from 'node:crypto';

import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from '../PaymentGateway/methods';
import { EVENTS_SUBTITLE } from '../webhook/events';
import { properties, readSettings } from './description';
import type { PollSettings } from './description';
import { selected, toItem } from './items';
import {
	MAX_REMEMBERED,
	PollComparison,
	readSnapshot,
	sameFilters,
	writeSnapshot,
} from './snapshot';
import { walkWindow, windowDays, windowTooLarge } from './window';

/** Polls of one trigger in this process: a poll still reading when the next is due skips it. */
const inFlight = new Set<string>();

export class PaymentGatewayPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway Poll Trigger',
		name: 'paymentGatewayPollTrigger',
		icon: {
			light: 'file:../../icons/paymentGateway.svg',
			dark: 'file:../../icons/paymentGateway.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: EVENTS_SUBTITLE,
		description:
			'On transaction changes (polling): starts the workflow for each new transaction or status change in the transaction list, without a public URL',
		defaults: { name: 'Payment Gateway Poll Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'paymentGatewayHostedApi',
				required: true,
				testedBy: 'testHostedCredential',
				displayOptions: { show: { authentication: ['hosted'] } },
			},
			{
				name: 'paymentGatewayS2sApi',
				required: true,
				testedBy: 'testS2sCredential',
				displayOptions: { show: { authentication: ['s2s'] } },
			},
			{
				name: 'paymentGatewaySdkApi',
				required: true,
				testedBy: 'testSdkCredential',
				displayOptions: { show: { authentication: ['sdk'] } },
			},
		],
		properties,
	};

	methods = { credentialTest };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const settings = readSettings(this);
		if (this.getMode() === 'manual') return await latest(this, settings);

		const key = `${this.getWorkflow().id ?? ''}:${this.getNode().id}`;
		if (inFlight.has(key)) return null;
		inFlight.add(key);
		try {
			const items = await changesSinceLastPoll(this, settings);
			// One execution per change, as the webhook trigger starts one per delivery. The snapshot is
			// written first: n8n saves static data when an execution is emitted.
			for (const item of items) this.__emit([[{ json: item }]]);
			return null;
		} finally {
			inFlight.delete(key);
		}
	}
}

const fingerprint = (query: IDataObject) =>
	createHash('sha256')
		.update(JSON.stringify(Object.entries(query).sort()))
		.digest('hex')
		.slice(0, 16);

/** Walks the window, compares it with the snapshot of statuses, writes the new one; the selected changes. */
async function changesSinceLastPoll(
	ctx: IPollFunctions,
	settings: PollSettings,
): Promise<IDataObject[]> {
	const now = Date.now();
	const { since, today } = windowDays(ctx.getTimezone(), settings.lookBackDays, now);
	const filters = fingerprint(settings.query);
	const staticData = ctx.getWorkflowStaticData('node');
	const comparison = new PollComparison(sameFilters(readSnapshot(staticData), filters), {
		since,
		today,
		filters,
	});
	const walk = await walkWindow(
		ctx,
		settings.channel,
		{ ...settings.query, from_date: since },
		(record) => comparison.see(record),
	);
	const snapshot = comparison.result();
	// Remembered transactions the walk did not meet count too.
	if (!walk.complete || snapshot.entries.size > MAX_REMEMBERED) throw windowTooLarge(ctx.getNode());
	writeSnapshot(staticData, snapshot);
	const detectedAt = new Date(now).toISOString();
	// Oldest first: the list is newest first.
	return comparison.changes
		.reverse()
		.map((change) => toItem(change, ctx.getTimezone(), detectedAt))
		.filter((item) => selected(settings.events, item));
}

/** A test run: the newest transaction of the window with a selected event; nothing remembered. */
async function latest(
	ctx: IPollFunctions,
	settings: PollSettings,
): Promise<INodeExecutionData[][] | null> {
	const now = Date.now();
	const { since, today } = windowDays(ctx.getTimezone(), settings.lookBackDays, now);
	const detectedAt = new Date(now).toISOString();
	let found: IDataObject | undefined;
	const see = (record: IDataObject) => {
		if (found) return;
		const item = toItem({ record, previousStatus: null }, ctx.getTimezone(), detectedAt);
		if (selected(settings.events, item)) found = item;
	};
	// The first page (the 100 newest) is enough to show what an item looks like.
	await walkWindow(
		ctx,
		settings.channel,
		// The window ends today: a record dated later (a clock ahead, seeded data) is no test event.
		{ ...settings.query, from_date: since, to_date: today },
		see,
		1,
	);
	return found ? [[{ json: found }]] : null;
}
