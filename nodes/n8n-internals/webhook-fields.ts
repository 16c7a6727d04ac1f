/**
 * A webhook description's field read from a node parameter, as n8n's own Webhook node declares its
 * fields since 2.x (n8n-workflow's `webhookDescriptionFields(fromParameter(…))`, absent in 1.123):
 * the expression template the editor reads, and under n8n's symbol a native resolver. With it n8n
 * resolves the field for each request without its expression engine (a V8 isolate in 2.x) when the
 * node's parameters hold no expression; releases without the symbol evaluate the template.
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
