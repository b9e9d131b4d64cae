/** The event module of each Trigger On choice (./pollEvent.ts), picked once per poll. */
import type { TriggerEvent } from '../triggerSettings';
import type { PollEvent } from './pollEvent';
import { rowAddedEvent } from './rowAdded';
import type { RowAddedState } from './rowAddedCursor';
import { rowAddedOrUpdatedEvent, type AddedOrUpdatedState } from './rowAddedOrUpdated';
import { rowChangesEvent, type ChangesState } from './rowChanges';

/** A cursor in the node's static data: `kind` is the event it belongs to. */
export type StoredCursor = RowAddedState | AddedOrUpdatedState | ChangesState;

export function pollEventFor(event: TriggerEvent): PollEvent<StoredCursor> {
	switch (event) {
		case 'rowAdded':
			return rowAddedEvent;
		case 'rowAddedOrUpdated':
			return rowAddedOrUpdatedEvent;
		default:
			return rowChangesEvent(event);
	}
}
