// Bench only, not part of the package: loaded into the bench's n8n through N8N_CUSTOM_EXTENSIONS
// (n8n's custom directory loader: **/*.node.js, class named as the file). A trigger whose webhook
// is described as the Payout Results Trigger's (POST, answered on receipt with the post's counts)
// and that emits the items posted to it as they are: what n8n itself costs to run a workflow of
// the trigger's items, with no ledger work.
'use strict';

const PATH = '={{$parameter["path"]}}';

class ItemsFloorTrigger {
	constructor() {
		this.description = {
			displayName: 'Bench Items Floor Trigger',
			name: 'itemsFloorTrigger',
			group: ['trigger'],
			version: 1,
			description: 'Emits the items posted to it (bench only)',
			defaults: { name: 'Items Floor' },
			inputs: [],
			outputs: ['main'],
			webhooks: [
				{
					name: 'default',
					httpMethod: 'POST',
					responseMode: 'onReceived',
					responseData: '',
					path: PATH,
					isFullPath: true,
					// As the Payout Results Trigger declares its path (nodes/n8n-internals/webhook-fields.ts).
					[Symbol.for('n8n.webhookDescriptionResolvers')]: {
						path: { template: PATH, resolve: (parameters) => parameters?.path },
					},
				},
			],
			properties: [
				{ displayName: 'Path', name: 'path', type: 'string', default: 'bench-floor' },
				{ displayName: 'Secret', name: 'secret', type: 'string', default: '' },
			],
		};
	}

	async webhook() {
		const secret = this.getNodeParameter('secret');
		if (!secret || this.getHeaderData()['notification-secret'] !== secret) {
			this.getResponseObject().status(401).json({ message: 'wrong secret' });
			return { noWebhookResponse: true };
		}
		const items = (this.getBodyData().items || []).map((json) => ({ json }));
		const counts = { received: true, applied: items.length, ignored: 0 };
		if (!items.length) return { webhookResponse: counts };
		return { workflowData: [items], webhookResponse: counts };
	}
}

module.exports = { ItemsFloorTrigger };
