import {
	MAX_INHERITED_ROLE_OPTIONS,
	accessItems,
	buildAccessDelta,
	isValidEmail,
	parseMaxInheritedRole,
	parseRole,
	roleOptions,
	rolesFor,
	usersDelta,
} from '../../nodes/Grist/documents/roles';
import { InputError } from '../../nodes/Grist/errors/gristAnswers';

function inputError(fn: () => unknown): InputError {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error as InputError;
	}
	throw new Error('expected an InputError');
}

describe('roles per target', () => {
	it('offers Member for organizations only', () => {
		expect(roleOptions('org').map((o) => o.value)).toEqual([
			'owners',
			'editors',
			'viewers',
			'members',
			'remove',
		]);
		expect(roleOptions('workspace').map((o) => o.value)).toEqual([
			'owners',
			'editors',
			'viewers',
			'remove',
		]);
		expect(roleOptions('document').map((o) => o.value)).toEqual([
			'owners',
			'editors',
			'viewers',
			'remove',
		]);
		expect(rolesFor('document')).not.toContain('members');
	});

	it('offers the four inherited-role ceilings including none', () => {
		expect(MAX_INHERITED_ROLE_OPTIONS.map((o) => o.value)).toEqual([
			'owners',
			'editors',
			'viewers',
			'none',
		]);
	});
});

describe('parseRole', () => {
	it('accepts option values, singular names and Remove Access in any case', () => {
		expect(parseRole('org', 'members')).toBe('members');
		expect(parseRole('document', 'Editor')).toBe('editors');
		expect(parseRole('workspace', ' VIEWERS ')).toBe('viewers');
		expect(parseRole('document', 'remove')).toBeNull();
		expect(parseRole('document', 'Remove Access')).toBeNull();
	});

	it('rejects an unknown role naming the field and listing the choices', () => {
		const e = inputError(() => parseRole('document', 'admin', 'Role of a@b.co'));
		expect(e.message).toBe('The Role of a@b.co "admin" is not a Grist role');
		expect(e.field).toBe('Role of a@b.co');
		expect(e.hint).toBe('Choose Owner, Editor, Viewer or Remove Access.');
	});

	it('rejects Member on a workspace or document', () => {
		const e = inputError(() => parseRole('workspace', 'member'));
		expect(e.message).toBe('The Role "Member" cannot be given on a workspace');
		expect(e.hint).toContain('organizations only');
	});

	it('rejects an empty role and guests (a read-only label)', () => {
		expect(inputError(() => parseRole('org', '')).message).toBe('The Role is empty');
		expect(inputError(() => parseRole('org', 'guests')).message).toBe(
			'The Role "guests" is not a Grist role',
		);
	});
});

describe('parseMaxInheritedRole', () => {
	it('maps none to null and accepts the three roles', () => {
		expect(parseMaxInheritedRole('none')).toBeNull();
		expect(parseMaxInheritedRole('owners')).toBe('owners');
		expect(parseMaxInheritedRole('Editors')).toBe('editors');
		expect(parseMaxInheritedRole('viewer')).toBe('viewers');
	});

	it('rejects members and unknown values', () => {
		expect(inputError(() => parseMaxInheritedRole('members')).field).toBe('Max Inherited Role');
		expect(inputError(() => parseMaxInheritedRole('all')).message).toBe(
			'The Max Inherited Role "all" is not valid',
		);
	});
});

describe('emails', () => {
	it.each(['a@b.co', 'first.last+tag@sub.example.org', 'everyone@getgrist.com'])(
		'accepts %s',
		(email) => {
			expect(isValidEmail(email)).toBe(true);
		},
	);
	it.each(['', 'plain', 'a@b', 'a b@c.de', 'a@b.co,c@d.ef', '@b.co', 'a@.co', 'a@b.'])(
		'rejects "%s"',
		(email) => {
			expect(isValidEmail(email)).toBe(false);
		},
	);
});

describe('usersDelta', () => {
	it('builds the users map with trimmed emails and null for Remove Access', () => {
		expect(
			usersDelta('document', [
				{ email: ' a@x.com ', role: 'editors' },
				{ email: 'b@x.com', role: 'remove' },
			]),
		).toEqual({ 'a@x.com': 'editors', 'b@x.com': null });
	});

	it('names the row of an invalid or empty email', () => {
		const bad = inputError(() =>
			usersDelta('org', [
				{ email: 'a@x.com', role: 'viewers' },
				{ email: 'nope', role: 'viewers' },
			]),
		);
		expect(bad.message).toBe('The Email "nope" of user 2 is not a valid email address');
		expect(bad.field).toBe('Email');
		expect(inputError(() => usersDelta('org', [{ email: '  ', role: 'viewers' }])).message).toBe(
			'The Email of user 1 is empty',
		);
	});

	it('keeps a repeated email with the same role once, rejects conflicting roles', () => {
		expect(
			usersDelta('org', [
				{ email: 'a@x.com', role: 'viewers' },
				{ email: 'A@x.com', role: 'viewer' },
			]),
		).toEqual({
			'a@x.com': 'viewers',
		});
		expect(
			inputError(() =>
				usersDelta('org', [
					{ email: 'a@x.com', role: 'viewers' },
					{ email: 'A@x.com', role: 'owners' },
				]),
			).message,
		).toBe('The Email "A@x.com" is listed twice with different roles');
	});
});

describe('buildAccessDelta', () => {
	it('org: users only', () => {
		expect(buildAccessDelta('org', [{ email: 'a@x.com', role: 'members' }])).toEqual({
			delta: { users: { 'a@x.com': 'members' } },
		});
	});

	it('org: no rows is an error; a max inherited role is refused', () => {
		expect(inputError(() => buildAccessDelta('org', [])).hint).toBe(
			'Add at least one user with a role.',
		);
		expect(
			inputError(() => buildAccessDelta('org', [{ email: 'a@x.com', role: 'owners' }], 'viewers'))
				.field,
		).toBe('Max Inherited Role');
	});

	it('workspace/document: users, ceiling, or both; none becomes null', () => {
		expect(buildAccessDelta('workspace', [], 'none')).toEqual({
			delta: { maxInheritedRole: null },
		});
		expect(
			buildAccessDelta('document', [{ email: 'a@x.com', role: 'viewers' }], 'editors'),
		).toEqual({
			delta: { users: { 'a@x.com': 'viewers' }, maxInheritedRole: 'editors' },
		});
		expect(buildAccessDelta('document', [{ email: 'a@x.com', role: 'owners' }], undefined)).toEqual(
			{
				delta: { users: { 'a@x.com': 'owners' } },
			},
		);
		expect(inputError(() => buildAccessDelta('document', [], undefined)).message).toBe(
			'No access change was given',
		);
	});
});

describe('accessItems', () => {
	const users = [
		{ id: 1, email: 'a@x.com', access: 'owners' },
		{ id: 2, email: 'b@x.com', access: 'guests' },
	];
	it('org: one item per user as listed', () => {
		expect(accessItems('org', { users })).toEqual(users);
	});
	it('workspace/document: adds the maxInheritedRole (null = none) to every user', () => {
		expect(accessItems('document', { maxInheritedRole: null, users })).toEqual([
			{ ...users[0], maxInheritedRole: null },
			{ ...users[1], maxInheritedRole: null },
		]);
		expect(accessItems('workspace', { maxInheritedRole: 'owners', users: [users[0]] })).toEqual([
			{ ...users[0], maxInheritedRole: 'owners' },
		]);
	});
	it('no users: no items', () => {
		expect(accessItems('workspace', { maxInheritedRole: 'owners', users: [] })).toEqual([]);
	});
});
