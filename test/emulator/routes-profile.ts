/** GET /api/profile/user: the caller (§10, under "OAuth apps"; `anonymous: true` without an API key). */
import type { Route } from './context';

export const profileRoutes: Route[] = [
	{
		method: 'GET',
		re: /^\/api\/profile\/user$/,
		handler: (c) => ({
			id: c.user.id,
			email: c.user.email,
			name: c.user.name,
			picture: null,
			ref: c.user.ref,
			...(c.isAnon ? { anonymous: true } : {}),
			allowGoogleLogin: true,
		}),
	},
];
