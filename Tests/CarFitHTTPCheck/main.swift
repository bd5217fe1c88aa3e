import CarFitHTTP
