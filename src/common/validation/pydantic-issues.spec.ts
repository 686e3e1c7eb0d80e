import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  validate,
} from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { quoteChoices, toPydanticIssues } from './pydantic-issues';

class Source {
  @IsIn(['news', 'earnings'])
  type: string;

  @IsInt()
  @Min(1)
  @Max(6)
  priority: number;
}

class Body {
  @IsString()
  @MaxLength(5)
  name: string;

  @IsOptional()
  @IsBoolean()
  flag?: boolean;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  limit?: number;

  @IsOptional()
  @ArrayMaxSize(2)
  tags?: string[];

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Source)
  sources?: Source[];
}

async function issuesFor(plain: object) {
  const errors = await validate(plainToInstance(Body, plain));
  return toPydanticIssues(errors, ['body']);
}

describe('toPydanticIssues', () => {
  it('reports a missing field as Pydantic does', async () => {
    expect(await issuesFor({})).toEqual([{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }]);
  });

  it('picks the type error before the constraint errors', async () => {
    expect(await issuesFor({ name: 12 })).toEqual([
      { loc: ['body', 'name'], msg: 'Input should be a valid string', type: 'string_type' },
    ]);
  });

  it('names length, boolean, integer and list-size failures with their ctx', async () => {
    const issues = await issuesFor({ name: 'toolong', flag: 'yes', limit: 'ten', tags: ['a', 'b', 'c'] });
    expect(issues).toEqual([
      {
        loc: ['body', 'name'],
        msg: 'String should have at most 5 characters',
        type: 'string_too_long',
        ctx: { max_length: 5 },
      },
      {
        loc: ['body', 'flag'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        type: 'bool_parsing',
      },
      {
        loc: ['body', 'limit'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        type: 'int_parsing',
      },
      {
        loc: ['body', 'tags'],
        msg: 'List should have at most 2 items after validation, not 3',
        type: 'too_long',
        ctx: { field_type: 'List', max_length: 2, actual_length: 3 },
      },
    ]);
  });

  it('points into arrays of objects with numeric indexes', async () => {
    const issues = await issuesFor({
      name: 'ok',
      sources: [
        { type: 'news', priority: 1 },
        { type: 'gossip', priority: 7 },
      ],
    });
    expect(issues).toEqual([
      {
        loc: ['body', 'sources', 1, 'type'],
        msg: "Input should be 'news' or 'earnings'",
        type: 'enum',
        ctx: { expected: "'news' or 'earnings'" },
      },
      {
        loc: ['body', 'sources', 1, 'priority'],
        msg: 'Input should be less than or equal to 6',
        type: 'less_than_equal',
        ctx: { le: 6 },
      },
    ]);
  });
});

describe('quoteChoices', () => {
  it.each([
    [['a'], "'a'"],
    [['a', 'b'], "'a' or 'b'"],
    [['a', 'b', 'c'], "'a', 'b' or 'c'"],
  ])('%j → %s', (values, expected) => {
    expect(quoteChoices(values)).toBe(expected);
  });
});
