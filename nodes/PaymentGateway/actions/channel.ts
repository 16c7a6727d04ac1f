import { NodeOperationError } from 'n8n-workflow';

import type { Channel, NodeContext } from '../transport';
import { nodeParameter } from '../helpers/context';

const CHANNEL_NAMES: Record<string, string> = {
	hosted: 'Hosted Solution Keys',
	s2s: 'S2S (Server-to-Server) Keys',
	sdk: 'SDK/Plugins Keys',
	pos: 'POS Web API Keys',
};

/** The channel of the credential chosen for Order, Payment and Transaction, if this operation can use it. */
export function getChannel(
	ctx: NodeContext,
	itemIndex: number,
	allowed: Channel[] = ['hosted', 's2s', 'sdk'],
): Channel {
	const channel = nodeParameter(ctx, 'authentication', itemIndex, 'hosted') as Channel;
	if (!allowed.includes(channel)) {
		const names = allowed.map((c) => `"${CHANNEL_NAMES[c] ?? c}"`).join(' or ');
		throw new NodeOperationError(
			ctx.getNode(),
			`This operation needs a credential of type ${names}`,
			{
				itemIndex,
				description: `The chosen credential holds "${CHANNEL_NAMES[channel] ?? channel}" keys, which this operation cannot use. Pick another credential in the node's Credential field. Nothing was sent.`,
			},
		);
	}
	return channel;
}
