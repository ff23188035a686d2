// The scraper's public face for other features: what a crawl under way has done so far.
export { crawlProgress, type CrawlProgress } from "./jobs";
