import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { InvalidFieldError } from '../errors/domain-errors';
import { PydanticValidationPipe } from './pydantic-validation.pipe';

/** Throws on ill-formed Unicode, like `encodeURI` inside validator.js's email and URL checks. */
const throwsOnIllFormedText = Transform(({ value }: { value: unknown }) =>
  typeof value === 'string' ? decodeURI(encodeURI(value)) : value,
);

class Contact {
  @IsString()
  @IsEmail()
  email: string;
}

class Body {
  @throwsOnIllFormedText
  @IsString()
  @MaxLength(3)
  code: string;

  @ValidateNested()
  @Type(() => Contact)
  contact: Contact;
}

const unicodeIssue = (loc: (string | number)[]) => ({
  loc,
  msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
  type: 'string_unicode',
});

async function issuesOf(value: unknown): Promise<unknown> {
  const sut = new PydanticValidationPipe();
  try {
    await sut.transform(value, { type: 'body', metatype: Body });
  } catch (error) {
    if (error instanceof InvalidFieldError) return error.issues;
    throw error;
  }
  return [];
}

describe('PydanticValidationPipe and ill-formed Unicode', () => {
  it('checks every string for well-formed Unicode before any transform or validator sees it', async () => {
    // The email, U+FFFD in its place, still fails its check, so its issue comes first.
    await expect(issuesOf({ code: 'a\ud800', contact: { email: 'b\udfff@example.com' } })).resolves.toEqual([
      unicodeIssue(['body', 'contact', 'email']),
      unicodeIssue(['body', 'code']),
    ]);
  });

  it("still reports the other fields' issues beside it", async () => {
    await expect(issuesOf({ code: 'toolong', contact: { email: '\ud800' } })).resolves.toEqual([
      {
        loc: ['body', 'code'],
        msg: 'String should have at most 3 characters',
        type: 'string_too_long',
        ctx: { max_length: 3 },
      },
      unicodeIssue(['body', 'contact', 'email']),
    ]);
  });

  it('an ill-formed object key is reported at that key', async () => {
    await expect(issuesOf({ code: 'a', contact: { email: 'a@example.com' }, 'k\ud800': 1 })).resolves.toEqual(
      [unicodeIssue(['body', 'k\ud800'])],
    );
  });
});
