/** Channels whose keys are a merchant-key / merchant-secret pair. */
export const MERCHANT_CHANNELS = [
	'hosted',
	'sdk',
	's2s',
	'paymentLink',
	'subscription',
	'invoice',
] as const;
export type MerchantChannel = (typeof MERCHANT_CHANNELS)[number];

/** Every channel whose key pair travels in the merchant-key / merchant-secret headers. */
export type KeyChannel = MerchantChannel | 'pos' | 'payout';

export interface MerchantKeyPair {
	merchantKey: string;
	merchantSecret: string;
}

export type SandboxKeys = Record<MerchantChannel, MerchantKeyPair> & {
	pos: { apiKey: string; apiSecret: string };
	/** Exchanged for bearer tokens at {payout_url}/v1/token. */
	payout: MerchantKeyPair;
	webhook: { notificationSecret: string };
};

// Fixed strings (not seed-dependent) so saved test credentials keep working across runs.
const pair = (channel: string): MerchantKeyPair => ({
	merchantKey: `sbx_${channel}_key_7f3c91`,
	merchantSecret: `sbx_${channel}_secret_2d8e54a0`,
});

export function createKeys(): SandboxKeys {
	return {
		hosted: pair('hosted'),
		sdk: pair('sdk'),
		s2s: pair('s2s'),
		paymentLink: pair('paymentlink'),
		subscription: pair('subscription'),
		invoice: pair('invoice'),
		pos: { apiKey: 'sbx_pos_key_5a1b77', apiSecret: 'sbx_pos_secret_c40e19f2' },
		payout: pair('payout'),
		webhook: { notificationSecret: 'sbx_webhook_notification_secret_93ad' },
	};
}

/** The [key, secret] a channel's requests must carry. */
export function keyPairOf(keys: SandboxKeys, channel: KeyChannel): [string, string] {
	if (channel === 'pos') return [keys.pos.apiKey, keys.pos.apiSecret];
	return [keys[channel].merchantKey, keys[channel].merchantSecret];
}
