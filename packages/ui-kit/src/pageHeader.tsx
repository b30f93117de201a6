import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

// The top bar's page-specific middle part: a page calls usePageHeader(<…/>) and the shell's
// <PageHeaderSlot/> shows it.
interface Ctx {
  node: ReactNode;
  set(node: ReactNode): void;
}
const PageHeaderContext = createContext<Ctx>({ node: null, set: () => {} });

export function PageHeaderProvider({ children }: { children: ReactNode }) {
  const [node, set] = useState<ReactNode>(null);
  const value = useMemo(() => ({ node, set }), [node]);
  return <PageHeaderContext.Provider value={value}>{children}</PageHeaderContext.Provider>;
}

export function PageHeaderSlot({ fallback = null }: { fallback?: ReactNode }) {
  const { node } = useContext(PageHeaderContext);
  return <>{node ?? fallback}</>;
}

/** Puts `node` in the top bar while the calling page is mounted. */
export function usePageHeader(node: ReactNode, deps: unknown[] = []): void {
  const { set } = useContext(PageHeaderContext);
  useEffect(() => {
    set(node);
    return () => set(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [set, ...deps]);
}
