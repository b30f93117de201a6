import { data, redirect } from 'react-router-dom';
import { ApiError, clearSession, getToken, isExpired, type User } from '@bahi/ui-kit';
import { fetchUser, getUser, setUser } from './userStore';

// Route loaders enforcing the session rules of spec 000 §4.

/**
 * The token's `fc` claim: a temporary password, whose token opens only Update Password and
 * logout (every other call answers 403), so the shell goes nowhere else.
 */
export function mustChangePassword(): boolean {
  const payload = getToken()?.split('.')[1];
  if (!payload) return false;
  try {
    return (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { fc?: unknown }).fc === true;
  } catch {
    return false;
  }
}

function liveSession(): void {
  if (isExpired()) {
    clearSession();
    setUser(null);
    throw redirect('/loginApp');
  }
}

async function sessionUser(): Promise<User> {
  liveSession();
  if (mustChangePassword()) throw redirect('/updatePassword');
  const cached = getUser();
  if (cached) return cached;
  try {
    return await fetchUser();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) throw redirect('/loginApp');
    throw err;
  }
}

/** /updatePassword (outside the shell): any live session, the temporary password's included. */
export function passwordLoader(): null {
  liveSession();
  return null;
}

/** The staff shell: a valid session of a non-admin user; admins go to /admin. */
export async function shellLoader(): Promise<User> {
  const user = await sessionUser();
  if (user.position === 'admin') throw redirect('/admin');
  return user;
}

/** The admin area: only the admin position; anyone else is sent to login. */
export async function adminLoader(): Promise<User> {
  const user = await sessionUser();
  if (user.position !== 'admin') throw redirect('/loginApp');
  return user;
}

/** Loaders run in parallel with the parent's, so this one checks the session itself. */
export async function managerOnly(): Promise<null> {
  const user = await shellLoader();
  if (user.position !== 'manager') {
    throw data({ header: 'Not allowed', message: 'This page is for managers only.' }, { status: 403 });
  }
  return null;
}

export function notFound(): never {
  throw data(null, { status: 404 });
}
