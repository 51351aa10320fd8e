import { useQuery } from '@tanstack/react-query';
import { profileQuery } from '../../../lib/registration';

/** GET /api/profile: the e-mail and whether it is confirmed (step 1). */
export const useEmailState = () => useQuery(profileQuery);

export { useResendConfirmation } from '../../../lib/registration';
