// Types of start-summary.cjs (hand-written; keep both in step).

/** A demo document as the emulator's ready line lists it. */
export interface SummaryDoc {
	name: string;
	id: string;
	tables: string[];
}

/** What `npm start` is running: the emulator with its demo site, or a real Grist (no key shown). */
export type SummaryGrist =
	| {
			kind: 'emulator';
			/** The URL the credential uses (the emulator's team site: `<url>/o/<domain>`). */
			url: string;
			apiKey: string;
			orgDomain: string;
			orgName: string;
			docs: SummaryDoc[];
	  }
	| { kind: 'real'; url: string };

export interface StartSummary {
	editorUrl: string;
	email: string;
	password: string;
	credentialName: string;
	grist: SummaryGrist;
	/** The process id that `kill` stops. */
	pid: number;
}

/** The block `npm start` prints when ready, blank lines around it included. */
export declare function startSummary(s: StartSummary): string;
