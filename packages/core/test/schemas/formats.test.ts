import { describe, expect, it } from 'vitest';
import { isDateTime } from '../../src/schemas/formats.js';

describe('date-time format', () => {
  it('accepts RFC 3339 instants, leap days of leap years and offsets', () => {
    for (const value of ['2024-05-01T10:00:00Z', '2024-02-29T23:59:59.999Z', '2000-02-29T00:00:00z', '2024-01-01 00:00:00+01:00', '2024-12-31T23:00:00-05:30', '2024-01-01T00:00:00+0100']) {
      expect(isDateTime(value), value).toBe(true);
    }
  });

  it('refuses dates and times that Date.parse would roll over to another moment', () => {
    for (const value of ['2023-02-29T10:00:00Z', '1900-02-29T00:00:00Z', '2024-04-31T23:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T23:60:00Z', '2024-13-01T00:00:00Z', '2024-00-10T00:00:00Z', '2024-01-00T00:00:00Z', '2024-01-01T00:00:00+24:00', '2024-01-01T00:00:00+01:60']) {
      expect(isDateTime(value), value).toBe(false);
    }
  });

  it('refuses a leap second, which a JavaScript date cannot hold', () => {
    expect(isDateTime('2016-12-31T23:59:60Z')).toBe(false);
  });

  it('refuses what is not a date-time at all', () => {
    for (const value of ['yesterday', '2024-05-01', '2024-05-01T10:00Z', '2024-05-01T10:00:00', '']) expect(isDateTime(value), value).toBe(false);
  });
});
