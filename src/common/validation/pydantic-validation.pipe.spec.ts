import { ValidationPipe } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
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

class OptionalQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  account_id?: number;
}

class RequiredQuery {
  @IsString()
  symbol: string;
}

class DefaultedQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  limit = 20;
}

describe('PydanticValidationPipe and an empty query', () => {
  const sut = new PydanticValidationPipe();
  const query = (metatype: new () => object) => ({ type: 'query' as const, metatype });

  it('answers a fresh instance of an all-optional DTO, every time, validating the class once', async () => {
    const fullValidation = jest.spyOn(ValidationPipe.prototype, 'transform');
    const first = await sut.transform({}, query(OptionalQuery));
    const second = await sut.transform(Object.create(null), query(OptionalQuery));
    expect(fullValidation).toHaveBeenCalledTimes(1);
    fullValidation.mockRestore();
    expect(second).toBeInstanceOf(OptionalQuery);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(Object.values(second as object).filter((value) => value !== undefined)).toEqual([]);
    expect(await sut.transform({ account_id: '3' }, query(OptionalQuery))).toEqual({ account_id: 3 });
    await expect(sut.transform({ account_id: '0' }, query(OptionalQuery))).rejects.toBeInstanceOf(
      InvalidFieldError,
    );
  });

  it('still refuses an empty query to a DTO with a required field, every time', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(sut.transform({}, query(RequiredQuery))).rejects.toBeInstanceOf(InvalidFieldError);
    }
  });

  it("keeps a DTO's defaults in a fresh instance each time, validating the class once", async () => {
    const defaulted = new PydanticValidationPipe();
    const fullValidation = jest.spyOn(ValidationPipe.prototype, 'transform');
    const answers = [await defaulted.transform({}, query(DefaultedQuery))];
    answers.push(await defaulted.transform({}, query(DefaultedQuery)));
    expect(fullValidation).toHaveBeenCalledTimes(1);
    fullValidation.mockRestore();
    for (const answer of answers) {
      expect(answer).toBeInstanceOf(DefaultedQuery);
      expect(answer).toEqual({ limit: 20 });
    }
    expect(answers[1]).not.toBe(answers[0]);
    expect(await defaulted.transform({ limit: '5' }, query(DefaultedQuery))).toEqual({ limit: 5 });
  });
});

class ListQuery {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',') : value))
  @IsString({ each: true })
  symbols: string[];
}

describe('PydanticValidationPipe and a query asked again', () => {
  const query = (metatype: new () => object) => ({ type: 'query' as const, metatype });

  it('validates the same query once, answering a fresh instance with its own lists each time', async () => {
    const sut = new PydanticValidationPipe();
    const fullValidation = jest.spyOn(ValidationPipe.prototype, 'transform');
    const first = (await sut.transform({ symbols: 'AAPL,MSFT' }, query(ListQuery))) as ListQuery;
    first.symbols.push('CHANGED BY ITS HANDLER');
    const second = (await sut.transform({ symbols: 'AAPL,MSFT' }, query(ListQuery))) as ListQuery;
    expect(fullValidation).toHaveBeenCalledTimes(1);
    expect(second).toBeInstanceOf(ListQuery);
    expect(second).toEqual({ symbols: ['AAPL', 'MSFT'] });
    expect(await sut.transform({ symbols: 'XOM' }, query(ListQuery))).toEqual({ symbols: ['XOM'] });
    expect(fullValidation).toHaveBeenCalledTimes(2);
    fullValidation.mockRestore();
  });

  it('keeps one class apart from another and refuses an invalid query every time', async () => {
    const sut = new PydanticValidationPipe();
    expect(await sut.transform({ account_id: '3' }, query(OptionalQuery))).toEqual({ account_id: 3 });
    expect(await sut.transform({ limit: '3' }, query(DefaultedQuery))).toEqual({ limit: 3 });
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(sut.transform({ account_id: '0' }, query(OptionalQuery))).rejects.toBeInstanceOf(
        InvalidFieldError,
      );
    }
  });
});
