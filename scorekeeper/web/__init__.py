"""The pages and the JSON API: views, forms, and what they draw (charts, QR codes, the API's document)."""
