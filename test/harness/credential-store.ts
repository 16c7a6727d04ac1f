// In-memory stand-in for n8n's credentials table: what the harness's credentials helper reads and
// writes back (refreshed tokens).
import type { ICredentialDataDecryptedObject, INodeCredentialsDetails } from 'n8n-workflow';
import { UserError, deepCopy } from 'n8n-workflow';

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/** In-memory stand-in for n8n's credentials table, keyed by credential id. */
export class CredentialStore {
	private readonly entries = new Map<string, StoredCredential>();

	add(credential: StoredCredential): void {
		if (this.entries.has(credential.id)) {
			throw new UserError(`Two harness credentials share the id "${credential.id}"`);
		}
		this.entries.set(credential.id, { ...credential, data: deepCopy(credential.data) });
	}

	get(id: string): StoredCredential | undefined {
		return this.entries.get(id);
	}

	/** The credential a node reference points at: by id, else by name and type, else by type. */
	find(ref: Partial<INodeCredentialsDetails>, type: string): StoredCredential | undefined {
		if (ref.id) return this.entries.get(ref.id);
		const ofType = [...this.entries.values()].filter((entry) => entry.type === type);
		return ofType.find((entry) => entry.name === ref.name) ?? ofType[0];
	}

	update(id: string, data: ICredentialDataDecryptedObject): void {
		const entry = this.entries.get(id);
		if (!entry) throw new UserError(`Credential with ID "${id}" does not exist`);
		entry.data = deepCopy(data);
	}

	snapshot(): Map<string, ICredentialDataDecryptedObject> {
		return new Map([...this.entries].map(([id, entry]) => [id, deepCopy(entry.data)]));
	}
}
