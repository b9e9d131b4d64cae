/**
 * Builders of the values tests put in node parameters and seed into Grist, shared by the
 * in-process (level b) and the real n8n (level c) tests: resource locators as the editor stores
 * them, resource-mapper values, input items, and a team site with one owner and one document.
 *
 * ```ts
 * run({ operation: 'getAll', ...docTable(demo.docId, 'Orders') });
 * run({ operation: 'create', table: byId('Tasks'), columns: autoMap() }, { input: items(rows) });
 * ```
 */
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';

import type { GristEmulator } from '../emulator';

/**
 * Whether a node property shows for `resource`: the value listed in `show.resource`, or an `eq`
 * condition on it (the columnar Operation selector, kept out of n8n's node panel that way).
 */
export const shownForResource = (p: INodeProperties, resource: string): boolean =>
	(p.displayOptions?.show?.resource ?? []).some(
		(v) =>
			v === resource ||
			(typeof v === 'object' &&
				v !== null &&
				'_cnd' in v &&
				'eq' in v._cnd &&
				v._cnd.eq === resource),
	);

/** A resource locator value, as the editor stores it (`mode`: id, list, url, name…). */
/** The Grist node as a workflow holds it, for contexts built by hand in unit tests. */
export const gristNode = (parameters: INodeParameters = {}): INode => ({
	id: '1',
	name: 'Grist',
	type: 'n8n-nodes-grist.grist',
	typeVersion: 1,
	position: [0, 0],
	parameters,
});

export const rl = (mode: string, value: string | number) => ({ __rl: true, mode, value });

/** A resource locator in "By ID" mode (a number is written as the editor stores it: a string). */
export const byId = (value: string | number) => rl('id', String(value));

/** The Document locator, and the Table locator when a table is given, both by ID. */
export const docTable = (docId: string, tableId?: string) => ({
	document: byId(docId),
	...(tableId === undefined ? {} : { table: byId(tableId) }),
});

/** A resource-mapper value with "Map Each Column Manually" (`value`: column → value). */
export const mapper = (value: IDataObject, matchingColumns: string[] = []) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns,
	schema: [],
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

/** A resource-mapper value with "Map Automatically" (the input item's fields by column ID). */
export const autoMap = (matchingColumns: string[] = []) => ({
	mappingMode: 'autoMapInputData',
	value: null,
	matchingColumns,
	schema: [],
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

/** Input items of these JSON objects. */
export const items = (list: IDataObject[]): INodeExecutionData[] => list.map((json) => ({ json }));

/**
 * The `gristRecordsOAuth2Api` credential (by type, for `otherCredentials`) of an app connected to
 * Grist: the Server URL, the app's client, and the token n8n stored after the consent.
 */
export const oauth2Credential = (
	url: string,
	app: { clientId: string; clientSecret: string },
	token: object,
) => ({
	gristRecordsOAuth2Api: {
		url,
		clientId: app.clientId,
		clientSecret: app.clientSecret,
		oauthTokenData: { ...token },
	},
});

export interface TeamDoc {
	/** The owner's API key (the one given). */
	apiKey: string;
	docId: string;
}

/**
 * Seeds a user owner@example.com with `apiKey`, who owns the team site `team` ("Team"), its
 * workspace "Main" and, in it, a document named `docName`.
 */
export function seedTeamDoc(emu: GristEmulator, apiKey: string, docName: string): TeamDoc {
	emu.addUser({ email: 'owner@example.com', name: 'Owner', apiKey });
	const org = emu.addOrg({ name: 'Team', domain: 'team', owner: 'owner@example.com' });
	const ws = emu.addWorkspace(org.id, 'Main', { owner: 'owner@example.com' });
	const docId = emu.addDoc(ws.id, { name: docName, owner: 'owner@example.com' }).id;
	return { apiKey, docId };
}
