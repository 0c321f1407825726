/** A place a provider found for a city name. */
export interface Place {
  name: string;
  country: string;
  /** ISO 3166-1 alpha-2, when known. */
  countryCode?: string;
  /** State, province or region, when known. */
  region?: string;
  latitude: number;
  longitude: number;
  /** IANA time zone of the place. */
  timezone: string;
}

/** Conditions now, always in metric units (units.ts converts for display). */
export interface CurrentWeather {
  place: Place;
  /** Local time of the observation, "YYYY-MM-DDTHH:MM". */
  time: string;
  temperatureC: number;
  apparentTemperatureC: number;
  /** Relative humidity, percent. */
  humidity: number;
  windKmh: number;
  /** Where the wind comes from, degrees. */
  windDirection: number;
  /** WMO weather interpretation code (conditions.ts). */
  weatherCode: number;
  precipitationMm: number;
  /** When the provider answered, ms since the epoch (an answer from the cache keeps its own). */
  fetchedAt: number;
}

export interface ForecastDay {
  /** Local date, "YYYY-MM-DD". */
  date: string;
  weatherCode: number;
  minC: number;
  maxC: number;
  precipitationMm: number;
  /** Highest chance of precipitation in the day, percent. */
  precipitationChance: number;
  windMaxKmh: number;
}

export interface Forecast {
  place: Place;
  days: ForecastDay[];
  fetchedAt: number;
}

/**
 * Where weather comes from. Answers are metric; a city the provider cannot place is an
 * UnknownCityError, anything else that goes wrong a ProviderError.
 */
export interface WeatherProvider {
  /** Said in every answer, so nobody mistakes sample data for an observation. */
  readonly source: string;
  /** Whether the answers are real observations and forecasts. */
  readonly live: boolean;
  /** The longest forecast it gives, days. */
  readonly maxForecastDays: number;
  current(city: string, signal?: AbortSignal): Promise<CurrentWeather>;
  forecast(city: string, days: number, signal?: AbortSignal): Promise<Forecast>;
  /** City names starting with `prefix`, for completion. */
  suggest(prefix: string, signal?: AbortSignal): Promise<string[]>;
}

/** A failure the person at the client should read; tools report it as an isError result. */
export class WeatherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The provider does not know the city. */
export class UnknownCityError extends WeatherError {
  readonly city: string;
  constructor(city: string, hint: string) {
    super(`Unknown city "${city}". ${hint}`);
    this.city = city;
  }
}

/** The provider could not be reached, timed out, or answered with an error. */
export class ProviderError extends WeatherError {}
