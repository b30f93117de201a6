import { createContext, useContext, type ReactNode } from 'react';

export type Position = 'admin' | 'manager' | 'staff';

export interface User {
  id: number | string;
  name: string;
  position: Position | string;
  companyId: number | string | null;
  companyName: string | null;
}

export interface UserContextValue {
  user: User | null;
  /** Re-reads /getUserData (after a company rename, for instance). */
  refresh(): Promise<void>;
}

const UserContext = createContext<UserContextValue>({ user: null, refresh: async () => {} });

export function UserProvider({ value, children }: { value: UserContextValue; children: ReactNode }) {
  return <UserContext.Provider value={value}>{children}</UserContext.Provider>;
}

/** The signed-in user, provided by the shell. */
export function useUser(): User | null {
  return useContext(UserContext).user;
}

export function useUserContext(): UserContextValue {
  return useContext(UserContext);
}

export const isManager = (user: User | null | undefined) => user?.position === 'manager';
export const isAdmin = (user: User | null | undefined) => user?.position === 'admin';
