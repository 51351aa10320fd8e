import { createContext } from 'react';

/**
 * The title of the deepest matched route that declares one (`handle: { title }` in the route table), given by
 * `AppRoutes` to the app's root, which titles the tab with it. The routes render in React Router's declarative mode,
 * which has no `useMatches` (ADR 0048).
 */
export const RouteTitleContext = createContext<string | undefined>(undefined);
