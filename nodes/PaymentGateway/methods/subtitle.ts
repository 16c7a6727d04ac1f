import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The canvas subtitle in words ("Create Payment"), read from each resource's operation list: n8n
 * evaluates the subtitle as an expression, so the names travel in it as a lookup by
 * "resource.operation".
 */
export function operationSubtitle(resources: Array<{ description: INodeProperties[] }>): string {
	const names: Record<string, string> = {};
	for (const { description } of resources) {
		for (const property of description) {
			if (property.name !== 'operation') continue;
			for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
				for (const option of (property.options ?? []) as INodePropertyOptions[]) {
					names[`${resource}.${String(option.value)}`] = option.name;
				}
			}
		}
	}
	return `={{ (${JSON.stringify(names)})[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] }}`;
}
