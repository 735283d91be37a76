/** An absolute http(s) URL: with anything else, nothing could ever be delivered. */
export const isEndpoint = (url: string | undefined): url is string => !!url && /^https?:\/\/[^\s/]+/.test(url);
