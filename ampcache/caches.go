package ampcache

// Cache is one AMP Cache, as recorded in the AMP project's caches.json.
type Cache struct {
	ID                          string `json:"id"`
	Name                        string `json:"name"`
	Docs                        string `json:"docs"`
	CacheDomain                 string `json:"cacheDomain"`
	UpdateCacheAPIDomainSuffix  string `json:"updateCacheApiDomainSuffix"`
	ThirdPartyFrameDomainSuffix string `json:"thirdPartyFrameDomainSuffix"`
}

// STUB (issue 4): replaced by a generated table.
var builtinCaches = []Cache{
	{ID: "google", Name: "Google AMP Cache", Docs: "https://developers.google.com/amp/cache/", CacheDomain: "cdn.ampproject.org", UpdateCacheAPIDomainSuffix: "cdn.ampproject.org", ThirdPartyFrameDomainSuffix: "ampproject.net"},
	{ID: "bing", Name: "Bing AMP Cache", Docs: "https://www.bing.com/webmaster/help/bing-amp-cache-bc1c884c", CacheDomain: "www.bing-amp.com", UpdateCacheAPIDomainSuffix: "www.bing-amp.com", ThirdPartyFrameDomainSuffix: "www.bing-amp.net"},
}

// Caches returns a copy of the built-in list of AMP Caches.
func Caches() []Cache { return append([]Cache(nil), builtinCaches...) }

// Origin returns the cache origin of a publisher domain on c:
// "https://" + DomainPrefix(domain) + "." + c.CacheDomain.
func (c Cache) Origin(domain string) (string, error) {
	p, err := DomainPrefix(domain)
	if err != nil {
		return "", err
	}
	return "https://" + p + "." + c.CacheDomain, nil
}

// Registry is a list of AMP Caches, for callers who keep their own.
// STUB (issue 4).
type Registry struct {
	caches []Cache
}

// NewRegistry returns a Registry of caches. STUB (issue 4): no validation.
func NewRegistry(caches []Cache) (*Registry, error) {
	return &Registry{caches: append([]Cache(nil), caches...)}, nil
}

// Caches returns a copy of r's caches.
func (r *Registry) Caches() []Cache { return append([]Cache(nil), r.caches...) }

// Origins returns the cache origins of domain, one per cache of r, in r's order.
func (r *Registry) Origins(domain string) ([]string, error) {
	var out []string
	for _, c := range r.caches {
		o, err := c.Origin(domain)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

var defaultRegistry = &Registry{caches: builtinCaches}
