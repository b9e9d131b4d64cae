import { columnarWriteProperties } from './columnarData';
import { writeColumnar } from './write';
import { operationDescription } from '../operationFrame';
import type { OperationExecute } from '../types';

export const description = operationDescription('columnar', 'update', columnarWriteProperties);

/** PATCH …\/data: rows of all items of one table in as few requests as possible. */
export const execute: OperationExecute = async function (client, items) {
	return await writeColumnar(this, client, items, 'update');
};
