/// Session logs written by hand, so each figure in them is known.
public enum SessionLogFixtures {
    /// Two requests for one URL: a miss (stored), then a fresh hit.
    public static let missThenHit = """
        {"format":"cachescope-session","version":1,"startedAt":"2026-01-05T10:00:00.000Z","redacted":true,"producer":"cachescope 0.1.0"}
        {"seq":1,"t":1,"req":1,"kind":"requestStarted","method":"GET","url":"https://api.example/a","cacheKey":"GET https://api.example/a","policy":"protocol","headers":[]}
        {"seq":2,"t":1.0001,"req":1,"kind":"lookup","verdict":"miss","reason":"not in cache"}
        {"seq":3,"t":1.03,"req":1,"kind":"served","source":"network","status":200,"bytes":100,"outcome":"miss","reason":"not in cache","age":0,"ttl":60,"headers":[{"name":"Cache-Control","value":"max-age=60"}]}
        {"seq":4,"t":1.0301,"req":1,"kind":"stored","entry":{"key":"GET https://api.example/a","variant":""},"tier":"both","size":300,"ttl":60,"status":200}
        {"seq":5,"t":1.0302,"req":1,"kind":"requestFinished","status":200,"latency":0.03,"bytesFromNetwork":100,"bytesFromCache":0,"outcome":"miss","reason":"not in cache","coalesced":false}
        {"seq":6,"t":2,"req":2,"kind":"requestStarted","method":"GET","url":"https://api.example/a","cacheKey":"GET https://api.example/a","policy":"protocol","headers":[]}
        {"seq":7,"t":2.0001,"req":2,"kind":"lookup","verdict":"fresh","reason":"max-age=60","age":1,"ttl":59}
        {"seq":8,"t":2.0002,"req":2,"kind":"served","source":"cache","status":200,"bytes":100,"outcome":"hit","reason":"max-age=60","age":1,"ttl":59,"headers":[{"name":"Cache-Control","value":"max-age=60"}]}
        {"seq":9,"t":2.0003,"req":2,"kind":"requestFinished","status":200,"latency":0.0003,"bytesFromNetwork":0,"bytesFromCache":100,"outcome":"hit","reason":"max-age=60","coalesced":false}

        """
}
