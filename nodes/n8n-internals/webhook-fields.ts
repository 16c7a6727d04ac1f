/**
 * A webhook description's field read from a node parameter, as n8n's own Webhook node declares its
 * fields in 2.41 (n8n-workflow's `webhookDescriptionFields(fromParameter(…))`, absent in 1.123): the
 * expression template the editor reads, and under n8n's symbol a native resolver. With it n8n 2.41
 * resolves the field for each request without evaluating the template in its expression engine
 * when the node's parameters hold no expression (the engine's isolate is still acquired for any
 * trigger but n8n's own Webhook node). Releases without the symbol evaluate the template.
 */
const RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

type Parameters = Record<string, unknown> | undefined;

export function fieldFromParameter<F extends string>(
	field: F,
	parameter: string,
): Record<F, string> & { [RESOLVERS]: Record<F, unknown> } {
	const template = `={{$parameter["${parameter}"]}}`;
	const resolver = { template, resolve: (parameters: Parameters) => parameters?.[parameter] };
	return {
		[field]: template,
		[RESOLVERS]: { [field]: resolver },
	} as Record<F, string> & { [RESOLVERS]: Record<F, unknown> };
}
