import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

const optionsOf = (property: INodeProperties) => (property.options ?? []) as INodePropertyOptions[];

/**
 * The canvas subtitle in words, operation then resource as n8n's own nodes
 * show it ("Get Many: Transaction"): an operation name alone ("Get", "Bulk Create") is shared by
 * several resources. n8n evaluates the subtitle as an expression, so the names travel in it as a
 * lookup by "resource.operation", read from the Resource and Operation lists.
 */
export function operationSubtitle(properties: INodeProperties[]): string {
	const resources = new Map<string, string>();
	const names: Record<string, string> = {};
	for (const property of properties) {
		if (property.name === 'resource')
			for (const option of optionsOf(property)) resources.set(String(option.value), option.name);
		if (property.name !== 'operation') continue;
		for (const resource of (property.displayOptions?.show?.resource ?? []) as string[]) {
			for (const option of optionsOf(property)) {
				names[`${resource}.${String(option.value)}`] =
					`${option.name}: ${resources.get(resource) ?? resource}`;
			}
		}
	}
	return `={{ (${JSON.stringify(names)})[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"] }}`;
}
