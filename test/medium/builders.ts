import { User } from '../../src/modules/users';
import { NewUser, UsersService } from '../../src/modules/users/users.service';
import { LedgerTransaction } from '../../src/modules/portfolio/ledger-transaction';
import { Preferences } from '../../src/modules/preferences/preferences';
import { PreferencesService } from '../../src/modules/preferences/preferences.service';
import { MediumModule } from './medium-module';
import { portfolioOf, TransactionCommand } from './portfolio-module';

let sequence = 0;

/** A user written through UsersService (its password policy and hashing included). */
export function newUser(medium: MediumModule, fields: Partial<NewUser> = {}): Promise<User> {
  sequence += 1;
  return medium.get(UsersService).create({
    email: `user-${process.pid}-${sequence}@example.com`,
    password: 'correct horse battery staple',
    fullName: `User ${sequence}`,
    ...fields,
  });
}

/** A ledger recorded in order through the portfolio's TransactionsService, under its rules. */
export async function newLedger(
  medium: MediumModule,
  user: { id: number },
  commands: readonly TransactionCommand[],
): Promise<LedgerTransaction[]> {
  const { record } = portfolioOf(medium);
  const recorded: LedgerTransaction[] = [];
  for (const command of commands) recorded.push(await record(user, command));
  return recorded;
}

/** Preferences created through PreferencesService: fields left out take the level's defaults. */
export function newPreferences(
  medium: MediumModule,
  user: { id: number },
  fields: Parameters<PreferencesService['create']>[1] = { experience_level: 'beginner' },
): Promise<Preferences> {
  return medium.get(PreferencesService).create(user.id, fields);
}
