import type {
	INode,
	INodeCredentialDescription,
	INodeParameters,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PaymentGateway } from '../../../nodes/PaymentGateway/PaymentGateway.node';

/**
 * The credential selector as n8n 2.41's editor builds it (nodeTypesUtils + useNodeCredentialOptions):
 * the credential types whose conditions hold are shown; a shown type that names the main auth field
 * (`authentication`) lists the credentials of every type that names it, and the newest of those is
 * pre-selected, which sets `authentication` to that type's first value.
 */
const { description } = new PaymentGateway();
const credentials = description.credentials ?? [];
const properties = description.properties;
const resources = (
	properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[]
).map((o) => String(o.value));
const operationsOf = (resource: string) =>
	(
		properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		)!.options as INodePropertyOptions[]
	).map((o) => String(o.value));
const authenticationValues = (version: number) =>
	(
		properties.find(
			(p) => p.name === 'authentication' && p.displayOptions?.show?.['@version']?.includes(version),
		)!.options as INodePropertyOptions[]
	).map((o) => String(o.value));

const node = (typeVersion: number, parameters: INodeParameters): INode => ({
	id: 'n',
	name: 'Payment Gateway',
	type: 'n8n-nodes-payment-gateway.paymentGateway',
	typeVersion,
	position: [0, 0],
	parameters,
});

/** The channel's credential selectors shown (Wait for Payment also shows the webhook credential, for its secret). */
const shown = (n: INode): INodeCredentialDescription[] =>
	credentials.filter(
		(c) =>
			c.name !== 'paymentGatewayWebhookApi' &&
			NodeHelpers.displayParameter(n.parameters, c, n, description),
	);
const namesAuthentication = (c: INodeCredentialDescription) =>
	'authentication' in (c.displayOptions?.show ?? {});
/** The credential types the one selector lists (a "mixed" selector lists every type naming `authentication`). */
const listed = (c: INodeCredentialDescription) =>
	namesAuthentication(c) ? credentials.filter(namesAuthentication).map((t) => t.name) : [c.name];

const cases = [1, 2, 3].flatMap((version) =>
	resources.flatMap((resource) =>
		operationsOf(resource).flatMap((operation) =>
			authenticationValues(version).map((authentication) => ({
				version,
				resource,
				operation,
				authentication,
			})),
		),
	),
);

describe('the credential selector, for every version, resource, operation and Authentication value', () => {
	it.each(cases)(
		'v$version $resource.$operation ($authentication): exactly one selector',
		({ version, resource, operation, authentication }) => {
			expect(shown(node(version, { resource, operation, authentication }))).toHaveLength(1);
		},
	);

	it('never lists POS credentials where the editor pre-selects for Order, Payment and Transaction', () => {
		expect(credentials.filter(namesAuthentication).map((c) => c.name)).toEqual([
			'paymentGatewayHostedApi',
			'paymentGatewayS2sApi',
			'paymentGatewaySdkApi',
		]);
	});

	it('whatever is pre-selected or picked from a selector, the node can run (no selector vanishes)', () => {
		const broken: string[] = [];
		for (const { version, resource, operation, authentication } of cases) {
			const [selector] = shown(node(version, { resource, operation, authentication }));
			for (const picked of listed(selector)) {
				// Picking a credential of a mixed selector sets Authentication to its type's first value.
				const value = namesAuthentication(selector)
					? String(
							credentials.find((c) => c.name === picked)!.displayOptions!.show!.authentication![0],
						)
					: authentication;
				const after = shown(node(version, { resource, operation, authentication: value }));
				if (after.length !== 1 || after[0].name !== picked)
					broken.push(`v${version} ${resource}.${operation}: ${picked}`);
			}
		}
		expect(broken).toEqual([]);
	});

	it('Get POS Order shows only the POS credential; the other operations never show it', () => {
		for (const version of [1, 2, 3]) {
			for (const operation of operationsOf('transaction')) {
				const names = shown(
					node(version, { resource: 'transaction', operation, authentication: 'hosted' }),
				).map((c) => c.name);
				expect(names).toEqual([
					operation === 'getPosOrder' ? 'paymentGatewayPosApi' : 'paymentGatewayHostedApi',
				]);
			}
		}
	});

	it('new nodes get version 3; versions 2 and 3 offer no POS keys under Authentication', () => {
		expect(description.defaultVersion).toBe(3);
		expect(authenticationValues(3)).toEqual(['hosted', 's2s', 'sdk']);
		expect(authenticationValues(2)).toEqual(['hosted', 's2s', 'sdk']);
		expect(authenticationValues(1)).toEqual(['hosted', 's2s', 'sdk', 'pos']);
	});
});

/**
 * The selector's label as n8n 2.41's editor makes it (NodeCredentials getCredentialsFieldLabel):
 * the entry's own displayName; else "Credential" where the entry is shown by the main auth field
 * (`authentication`) or by nothing; else "Credential for <credential type>".
 */
const labelOf = (c: INodeCredentialDescription, shownBy: INodeCredentialDescription[]) => {
	if (c.displayName) return c.displayName;
	const show = c.displayOptions?.show;
	const hasAuthentication = properties.some((p) => p.name === 'authentication');
	const mixed = !show || (hasAuthentication && 'authentication' in show);
	return mixed ? 'Credential' : `Credential for ${c.name} (${shownBy.length} shown)`;
};

describe('the credential selector label', () => {
	it.each(cases.filter((c) => c.version === 3))(
		'$resource $operation: "Credential", as n8n\'s own nodes say',
		({ version, resource, operation, authentication }) => {
			const n = node(version, { resource, operation, authentication });
			const all = credentials.filter((c) =>
				NodeHelpers.displayParameter(n.parameters, c, n, description),
			);
			const labels = all.map((c) => labelOf(c, all));
			expect(labels).toEqual(
				operation === 'waitForPayment' ? ['Credential', 'Webhook Credential'] : ['Credential'],
			);
		},
	);
});
