// dayjs in Portuguese (Brazil). Imported by whoever formats dates (lib/format.ts and the screens), not by the entry:
// /login formats none (ADR 0040).
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import 'dayjs/locale/pt-br';

dayjs.extend(utc);
dayjs.locale('pt-br');

export { dayjs };
